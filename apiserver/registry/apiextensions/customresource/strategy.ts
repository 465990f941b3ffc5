/**
 * The strategy of one custom resource version: the schema's defaults on every write, validation
 * against the structural schema on create and update, and the same validation on a status write.
 */
import type { Schema } from '../../../api/schema.js';
import type { Strategy, SubresourceStrategy } from '../../../api/strategy.js';
import type { ApiObject } from '../../../api/object.js';
import { statusSubresource } from '../../status-subresource.js';
import { applySchemaDefaults, hasDefaults } from './defaulting.js';
import { validateCustomObject } from './schema-validation.js';

export function newCustomResourceStrategy(schema: Schema): Strategy {
  const defaults = hasDefaults(schema);
  const validate = (obj: ApiObject) => validateCustomObject(obj as unknown as Record<string, unknown>, schema);
  return {
    applyDefaults: defaults ? (obj) => applySchemaDefaults(obj, schema) : undefined,
    validate,
    validateUpdate: validate,
  };
}

/** /status of a custom resource: only status changes, and the object must still match its schema. */
export function customResourceStatus(schema: Schema): SubresourceStrategy {
  return {
    prepareForUpdate: statusSubresource.prepareForUpdate,
    validateUpdate: (obj) => validateCustomObject(obj as unknown as Record<string, unknown>, schema),
  };
}
