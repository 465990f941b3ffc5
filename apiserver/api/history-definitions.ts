/**
 * The schemas of history.<domain>/v1's kinds (registry/resources/history.ts) and of the
 * ObjectRevisionList every kind's `history` subresource answers (registry/generic/history-view.ts),
 * orch's own, so not in the generated Kubernetes definitions: the server adds them to those
 * (run-server.ts), so OpenAPI publishes them and `kubectl explain` reads them.
 */
import type { CreateSubresource } from './resource.js';
import type { Schema } from './schema.js';

const META = { $ref: '#/definitions/meta.v1.ObjectMeta' };
const LIST_META = { $ref: '#/definitions/meta.v1.ListMeta' };
const str = (description: string): Schema => ({ type: 'string', description });
const gvk = (kind: string) => [{ group: 'history.k8s.io', version: 'v1', kind }];

const target: Schema = {
  type: 'object',
  description: 'The object, as it was last stored.',
  properties: {
    apiVersion: str('Its apiVersion.'),
    kind: str('Its kind.'),
    group: str('The API group of its resource ("" for the core group).'),
    resource: str('Its resource (plural).'),
    namespace: str('Its namespace (absent for a cluster-scoped object).'),
    name: str('Its name.'),
    uid: str('Its uid, which a restore keeps.'),
  },
};

const restored: Schema = {
  type: 'object',
  properties: {
    apiVersion: str('The apiVersion of the object.'),
    kind: str('Its kind.'),
    resource: str('Its resource.'),
    namespace: str('Its namespace.'),
    name: str('Its name.'),
    uid: str('Its uid (kept).'),
    resourceVersion: str('The resourceVersion the restore wrote.'),
    reason: str('For an object left out: the reason of the refusal (AlreadyExists, …).'),
    message: str('For an object left out: why.'),
  },
};

export const OBJECT_REVISION_LIST_SCHEMA = 'history.v1.ObjectRevisionList';
const OBJECT_REVISION_SCHEMA = 'history.v1.ObjectRevision';

/** The kind a history read answers, in the terms an operation naming another kind uses. */
export const OBJECT_REVISION_LIST_KIND: CreateSubresource = {
  kubernetesGroup: 'history.k8s.io',
  version: 'v1',
  kind: 'ObjectRevisionList',
  schema: OBJECT_REVISION_LIST_SCHEMA,
};

export const historyDefinitions: Readonly<Record<string, Schema>> = {
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

  'history.v1.DeletedObject': {
    type: 'object',
    description: 'An object deleted within the --history-retention window, which a Restore can put back.',
    properties: {
      apiVersion: str('history.orch.io/v1'),
      kind: str('DeletedObject'),
      metadata: META,
      target,
      deletion: {
        type: 'object',
        properties: {
          time: str('When the deletion was asked for (RFC 3339).'),
          user: str('Who asked for it.'),
          resourceVersion: str('The resourceVersion at which the object was removed.'),
          lastResourceVersion: str('The resourceVersion of its last live state (a history ?resourceVersion= read).'),
        },
      },
    },
    'x-orch-group-version-kind': gvk('DeletedObject'),
  },
  'history.v1.DeletedObjectList': {
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: str('history.orch.io/v1'),
      kind: str('DeletedObjectList'),
      metadata: LIST_META,
      items: { type: 'array', items: { $ref: '#/definitions/history.v1.DeletedObject' } },
    },
    'x-orch-group-version-kind': gvk('DeletedObjectList'),
  },
  'history.v1.Restore': {
    type: 'object',
    description: 'Puts a deleted object back as it was just before its deletion (a Namespace with everything deleted with it).',
    properties: {
      apiVersion: str('history.orch.io/v1'),
      kind: str('Restore'),
      metadata: META,
      spec: {
        type: 'object',
        required: ['resource', 'name'],
        properties: {
          group: str('The API group of the resource ("" or absent: core).'),
          resource: str('The resource (plural), e.g. configmaps, deployments, namespaces.'),
          namespace: str('The namespace of a namespaced object.'),
          name: str('The name of the deleted object.'),
          uid: str('Restore only if the last deletion was of this uid.'),
        },
      },
      status: {
        type: 'object',
        properties: {
          restored: { type: 'array', items: restored, description: 'The objects written, the one asked for first.' },
          skipped: { type: 'array', items: restored, description: "A namespace's contents left out (their names were taken again)." },
        },
      },
    },
    'x-orch-group-version-kind': gvk('Restore'),
  },
};
