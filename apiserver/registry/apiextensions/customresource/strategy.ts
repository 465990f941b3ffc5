/**
 * The strategy of one custom resource version: the schema's defaults on every write, validation
 * against the structural schema on create and update, and the same validation on a status write.
 */
import type { Schema } from '../../../api/schema.js';
import type { Strategy, SubresourceStrategy } from '../../../api/strategy.js';
import type { ApiObject } from '../../../api/object.js';
import { storedMetadataStatusSubresource } from '../../generic/status-subresource.js';
import { applySchemaDefaults, hasDefaults } from './defaulting.js';
import { validateCustomObject } from './schema-validation.js';
import { newCelValidator } from './cel-rules.js';
import type { FieldError } from '../../../api/field-errors.js';

/** Schema validation, then (on a valid object, as Kubernetes) the CEL rules, with the stored object on an update. */
function newValidation(schema: Schema): (obj: ApiObject, old?: ApiObject) => FieldError[] {
  const cel = newCelValidator(schema);
  return (obj, old) => {
    const errors = validateCustomObject(obj, schema);
    if (errors.length === 0 && cel) errors.push(...cel.validate(obj, old));
    return errors;
  };
}

export function newCustomResourceStrategy(schema: Schema): Strategy {
  const defaults = hasDefaults(schema);
  const validate = newValidation(schema);
  return {
    applyDefaults: defaults ? (obj) => applySchemaDefaults(obj, schema) : undefined,
    validate: (obj) => validate(obj),
    validateUpdate: (obj, old) => validate(obj, old),
  };
}

/**
 * /status of a custom resource: only status changes (the stored object, metadata included, with the
 * request's status, as apiextensions' statusStrategy), and the object must still match its schema and rules.
 */
export function customResourceStatus(schema: Schema): SubresourceStrategy {
  const validate = newValidation(schema);
  return {
    prepareForUpdate: storedMetadataStatusSubresource.prepareForUpdate,
    validateUpdate: (obj, old) => validate(obj, old),
  };
}
