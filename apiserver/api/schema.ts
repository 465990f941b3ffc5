/**
 * The schema shape every served kind is declared with: OpenAPI v3-style, with Kubernetes' extensions
 * named `x-orch-…`. Generated from reference data by scripts/generate-schemas.ts into
 * api/generated/definitions.ts; custom resources bring the same shape at run time.
 */
export interface Schema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  format?: string;
  $ref?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  required?: string[];
  enum?: unknown[];
  /** JSON Schema value rules, as CustomResourceDefinition schemas use them (built-in kinds leave them out). */
  description?: string;
  default?: unknown;
  nullable?: boolean;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  multipleOf?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minProperties?: number;
  maxProperties?: number;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  not?: Schema;
  'x-orch-group-version-kind'?: { group: string; version: string; kind: string }[];
  'x-orch-list-type'?: 'atomic' | 'set' | 'map';
  'x-orch-list-map-keys'?: string[];
  'x-orch-map-type'?: 'atomic' | 'granular';
  'x-orch-patch-strategy'?: string;
  'x-orch-patch-merge-key'?: string;
  'x-orch-int-or-string'?: boolean;
  'x-orch-preserve-unknown-fields'?: boolean;
  'x-orch-embedded-resource'?: boolean;
  /** CEL validation rules of a custom resource's schema. */
  'x-orch-validations'?: { rule: string; message?: string; messageExpression?: string; reason?: string; fieldPath?: string }[];
  /** Discriminated unions (discriminator + fields), as Kubernetes publishes them. */
  'x-orch-unions'?: { discriminator?: string; 'fields-to-discriminateBy'?: Record<string, string> }[];
}

/** Named definitions, referenced as `#/definitions/<name>`. */
export type Definitions = Readonly<Record<string, Schema>>;

const REF_PREFIX = '#/definitions/';

/** Follows $ref chains to the schema they name. */
export function resolveSchema(schema: Schema, defs: Definitions): Schema {
  let s = schema;
  for (let i = 0; s.$ref && i < 32; i++) {
    const target = defs[s.$ref.slice(REF_PREFIX.length)];
    if (!target) throw new Error(`schema: unknown reference ${s.$ref}`);
    s = target;
  }
  return s;
}

/**
 * The schema of property `key` in a properties map: own entries only, so that a field named like an
 * Object member (`constructor`, `toString`, `__proto__`) is looked up as a field, not found on Object.
 */
export function ownProperty<T>(properties: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return properties !== undefined && Object.hasOwn(properties, key) ? properties[key] : undefined;
}
