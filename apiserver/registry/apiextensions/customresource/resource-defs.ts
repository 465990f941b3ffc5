/**
 * What a CustomResourceDefinition serves: one ResourceDef per served version, bound to the generic store
 * like any built-in kind, and each version's schema as a named definition (Kubernetes' OpenAPI name,
 * `com.example.stable.v1.CronTab`) that decoding, pruning, apply and OpenAPI read. Versions other than the
 * storage version share its stored objects through a storage conversion (conversion strategy None: only
 * apiVersion changes; Webhook: every version converts through the server's CustomResourceConverter, which
 * calls the CRD's conversion webhook; without one, only the storage version is served).
 */
import type { CustomResourceDefinition, CustomResourceDefinitionVersion } from '../../../api/generated/types.js';
import type { ApiDomain } from '../../../api/domain.js';
import type { ApiObject } from '../../../api/object.js';
import type { ResourceDef, StorageConversion } from '../../../api/resource.js';
import { METADATA_FIELDS, type SubresourceStrategy } from '../../../api/strategy.js';
import { ALL_VERBS } from '../../../api/resource.js';
import type { Schema } from '../../../api/schema.js';
import { apiVersionOf } from '../../../api/object.js';
import { toSchema, type JsonSchemaProps } from '../../shared/cel-schema/json-schema.js';
import { customResourceColumns } from './columns.js';
import { customResourceScale } from './scale.js';
import { customResourceStatus, newCustomResourceStrategy } from './strategy.js';
import { applySchemaDefaults, hasDefaults } from './defaulting.js';

const OBJECT_META = '#/definitions/meta.v1.ObjectMeta';

/**
 * Converts custom objects to apiVersion through the CRD's conversion webhook (BatchConversion's contract);
 * server/ implements it.
 */
export type CustomResourceConverter = (crd: CustomResourceDefinition, objects: ApiObject[], apiVersion: string) => Promise<ApiObject[]>;

export interface CustomResourceServing {
  defs: ResourceDef[];
  /** The versions' schemas, by definition name. */
  definitions: Record<string, Schema>;
}

/** Kubernetes' OpenAPI definition name of a custom kind: the group reversed, the version, the kind. */
export function definitionName(group: string, version: string, kind: string): string {
  return [...group.split('.').reverse(), version, kind].join('.');
}

/**
 * Objects the schema declares without properties hold nothing (pruning removes what they are sent),
 * unless they keep unknown fields or declare additionalProperties: `properties: {}` says so to the
 * decoder, which otherwise leaves undeclared objects whole.
 */
function closeObjects(s: Schema): Schema {
  const out: Schema = { ...s };
  if (out.properties) out.properties = Object.fromEntries(Object.entries(out.properties).map(([k, v]) => [k, closeObjects(v)]));
  if (out.items) out.items = closeObjects(out.items);
  if (typeof out.additionalProperties === 'object') out.additionalProperties = closeObjects(out.additionalProperties);
  const open = out['x-orch-preserve-unknown-fields'] || out['x-orch-int-or-string'] || out.additionalProperties !== undefined;
  if (out.type === 'object' && !out.properties && !open) out.properties = {};
  return out;
}

/** A version's schema as served: the CRD's, with apiVersion, kind and ObjectMeta metadata at the root. */
export function versionSchema(crd: CustomResourceDefinition, version: CustomResourceDefinitionVersion, prefix: string): Schema {
  const user = closeObjects(toSchema((version.schema?.openAPIV3Schema ?? { type: 'object' }) as JsonSchemaProps, prefix));
  return {
    ...user,
    type: 'object',
    properties: {
      ...user.properties,
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { $ref: OBJECT_META },
    },
    'x-orch-group-version-kind': [{ group: crd.spec.group, version: version.name, kind: crd.spec.names.kind }],
  };
}

export function customResourceServing(
  crd: CustomResourceDefinition,
  domain: ApiDomain,
  converter?: CustomResourceConverter,
): CustomResourceServing {
  const { group, names, scope } = crd.spec;
  const storage = crd.spec.versions.find((v) => v.storage)?.name ?? crd.spec.versions[0]?.name;
  const defs: ResourceDef[] = [];
  const definitions: Record<string, Schema> = {};
  const plural = crd.status?.acceptedNames?.plural || names.plural;
  const kind = crd.status?.acceptedNames?.kind || names.kind;
  // With strategy Webhook and no converter, only the storage version, which needs none, is served.
  const webhook = crd.spec.conversion?.strategy === 'Webhook';
  const batchConversion = webhook && converter ? (objs: ApiObject[], apiVersion: string) => converter(crd, objs, apiVersion) : undefined;
  for (const v of crd.spec.versions) {
    if (!v.served || (webhook && !converter && v.name !== storage)) continue;
    const name = definitionName(group, v.name, kind);
    const schema = versionSchema(crd, v, domain.extensionPrefix);
    definitions[name] = schema;
    const subresources: Record<string, SubresourceStrategy> = {};
    if (v.subresources?.status !== undefined) subresources.status = customResourceStatus(schema);
    if (v.subresources?.scale) subresources.scale = customResourceScale(v.subresources.scale);
    const conversion: StorageConversion | undefined =
      v.name === storage
        ? undefined
        : {
            storage: { kubernetesGroup: group, version: storage, kind, resource: plural },
            toStorage: (obj) => obj,
            fromStorage: (obj) => obj,
          };
    defs.push({
      kubernetesGroup: group,
      group,
      version: v.name,
      apiVersion: apiVersionOf(group, v.name),
      kind,
      listKind: crd.status?.acceptedNames?.listKind || names.listKind || `${kind}List`,
      plural,
      singular: crd.status?.acceptedNames?.singular || names.singular || kind.toLowerCase(),
      shortNames: crd.status?.acceptedNames?.shortNames ?? names.shortNames,
      categories: crd.status?.acceptedNames?.categories ?? names.categories,
      namespaced: scope === 'Namespaced',
      // crConverter.ConvertFieldLabel: metadata.name, and metadata.namespace when namespaced.
      selectableFields: scope === 'Namespaced' ? METADATA_FIELDS : { 'metadata.name': METADATA_FIELDS['metadata.name'] },
      schema: name,
      schemaRef: { $ref: `#/definitions/${name}` },
      nameRule: 'dns-subdomain',
      strategy: newCustomResourceStrategy(schema),
      defaultOnRead: hasDefaults(schema) ? (obj) => applySchemaDefaults(obj, schema) : undefined,
      subresources: Object.keys(subresources).length ? subresources : undefined,
      verbs: ALL_VERBS,
      trackGeneration: true,
      columns: customResourceColumns(v.additionalPrinterColumns),
      conversion,
      batchConversion,
      unstructured: true,
      requireResourceVersionOnUpdate: true,
      deprecationWarning: v.deprecated ? (v.deprecationWarning ?? `${apiVersionOf(group, v.name)} ${kind} is deprecated`) : undefined,
    });
  }
  return { defs, definitions };
}
