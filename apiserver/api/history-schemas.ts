/**
 * The schemas of the revision ledger's answers (history.<domain>/v1), as the OpenAPI documents
 * publish them beside every kind's `history` subresource: an ObjectRevisionList of ObjectRevisions.
 * The registry's history view (registry/generic/history-view.ts) builds objects of these shapes.
 */
import type { CreateSubresource } from './resource.js';
import type { Definitions } from './schema.js';

export const OBJECT_REVISION_LIST_SCHEMA = 'history.v1.ObjectRevisionList';
const OBJECT_REVISION_SCHEMA = 'history.v1.ObjectRevision';

/** The kind a history read answers, in the terms an operation naming another kind uses. */
export const OBJECT_REVISION_LIST_KIND: CreateSubresource = {
  kubernetesGroup: 'history.k8s.io',
  version: 'v1',
  kind: 'ObjectRevisionList',
  schema: OBJECT_REVISION_LIST_SCHEMA,
};

export const HISTORY_DEFINITIONS: Definitions = {
  [OBJECT_REVISION_LIST_SCHEMA]: {
    description: "An object's revisions from the revision ledger, newest first, paged like a list.",
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: { type: 'string', description: 'history.<domain>/v1' },
      kind: { type: 'string', description: 'ObjectRevisionList' },
      metadata: { $ref: '#/definitions/meta.v1.ListMeta' },
      items: { type: 'array', items: { $ref: `#/definitions/${OBJECT_REVISION_SCHEMA}` } },
    },
    'x-orch-group-version-kind': [{ group: 'history.k8s.io', version: 'v1', kind: 'ObjectRevisionList' }],
  },
  [OBJECT_REVISION_SCHEMA]: {
    description: 'One write of an object: who made it, how and when, and the change it made.',
    type: 'object',
    required: ['resourceVersion', 'time', 'operation', 'user', 'patch'],
    properties: {
      resourceVersion: { type: 'string', description: 'The object as this write left it is read at this resourceVersion.' },
      time: { type: 'string', format: 'date-time', description: 'When the write was made (RFC 3339, milliseconds).' },
      operation: { type: 'string', enum: ['create', 'update', 'patch', 'apply', 'delete'] },
      user: { type: 'string', description: 'The user who made the write ("" for none).' },
      fieldManager: { type: 'string', description: 'The field manager the request named.' },
      patch: {
        type: 'array',
        description:
          'RFC 6902 JSON patch from the revision before; a create and the oldest revision in the window carry the whole object as one add at the root, a delete none.',
        items: {
          type: 'object',
          required: ['op', 'path'],
          properties: {
            op: { type: 'string', enum: ['add', 'remove', 'replace', 'move', 'copy', 'test'] },
            path: { type: 'string' },
            from: { type: 'string' },
            value: { 'x-orch-preserve-unknown-fields': true },
          },
        },
      },
    },
  },
};
