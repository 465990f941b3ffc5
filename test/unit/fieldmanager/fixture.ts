/**
 * A small schema with every list and map type field ownership distinguishes, shaped like a
 * Deployment's: keyed lists (ports by port+protocol with a defaulted protocol, containers by merge key),
 * a set (finalizers), atomic lists (args) and maps (selector), granular maps (labels), structs, and a
 * schema-less field (extra); and a namespaced kind Widget of that schema with a status subresource.
 */
import type { ResourceDef } from '../../../apiserver/api/resource.js';
import type { Definitions, Schema } from '../../../apiserver/api/schema.js';
import { statusSubresource } from '../../../apiserver/registry/generic/status-subresource.js';
import { TypeResolver } from '../../../apiserver/fieldmanager/typed-schema.js';

const ref = (name: string): Schema => ({ $ref: `#/definitions/${name}` });
const str: Schema = { type: 'string' };
const int: Schema = { type: 'integer' };
const stringMap: Schema = { type: 'object', additionalProperties: str };

export const definitions: Definitions = {
  'test.Widget': {
    type: 'object',
    properties: {
      apiVersion: str,
      kind: str,
      metadata: ref('test.Meta'),
      spec: ref('test.Spec'),
      status: { type: 'object', properties: { phase: str } },
    },
  },
  'test.Meta': {
    type: 'object',
    properties: {
      name: str,
      namespace: str,
      labels: stringMap,
      annotations: stringMap,
      finalizers: { type: 'array', items: str, 'x-orch-patch-strategy': 'merge' },
      resourceVersion: str,
      managedFields: { type: 'array', items: { type: 'object', properties: { manager: str } } },
    },
  },
  'test.Spec': {
    type: 'object',
    properties: {
      replicas: int,
      ports: { type: 'array', items: ref('core.v1.ServicePort'), 'x-orch-list-type': 'map', 'x-orch-list-map-keys': ['port', 'protocol'] },
      containers: { type: 'array', items: ref('test.Container'), 'x-orch-patch-strategy': 'merge', 'x-orch-patch-merge-key': 'name' },
      args: { type: 'array', items: str },
      tags: { type: 'array', items: str, 'x-orch-list-type': 'set' },
      selector: ref('test.Selector'),
      strategy: { type: 'object', properties: { type: str, rollingUpdate: { type: 'object', properties: { maxSurge: int } } } },
      extra: { type: 'object' },
    },
  },
  'test.Selector': { type: 'object', properties: { matchLabels: stringMap }, 'x-orch-map-type': 'atomic' },
  'core.v1.ServicePort': { type: 'object', properties: { port: int, protocol: str, name: str } },
  'test.Container': {
    type: 'object',
    properties: {
      name: str,
      image: str,
      env: {
        type: 'array',
        items: { type: 'object', properties: { name: str, value: str } },
        'x-orch-patch-strategy': 'merge',
        'x-orch-patch-merge-key': 'name',
      },
    },
  },
};

export const schema: Schema = ref('test.Widget');
export const types = new TypeResolver(definitions);

/** The kind served with that schema. */
export const def = {
  group: 'test.orch.io',
  kubernetesGroup: 'test.orch.io',
  version: 'v1',
  apiVersion: 'test.orch.io/v1',
  kind: 'Widget',
  listKind: 'WidgetList',
  plural: 'widgets',
  singular: 'widget',
  namespaced: true,
  schema: 'test.Widget',
  schemaRef: schema,
  nameRule: 'dns-subdomain',
  verbs: [],
  subresources: { status: statusSubresource },
} as ResourceDef;
