/** Rules shared by ConfigMap and Secret: data keys, total size, `immutable`. */
import { jsonEqual } from '../../api/object.js';
import type { FieldError } from '../../api/field-errors.js';
import { forbidden, invalid } from '../../api/field-errors.js';
import { isConfigMapKey } from '../../api/validation/names.js';

/** ConfigMaps and Secrets hold at most 1 MiB (core.MaxSecretSize). */
export const MAX_DATA_SIZE = 1024 * 1024;

export function validateDataKeys(field: string, data: Record<string, unknown> | undefined): FieldError[] {
  const errors: FieldError[] = [];
  for (const key of Object.keys(data ?? {})) {
    for (const msg of isConfigMapKey(key)) errors.push(invalid(`${field}[${key}]`, key, msg));
  }
  return errors;
}

/** With `immutable: true` stored, neither the flag nor the listed fields may change. */
export function validateImmutableData<T extends { immutable?: boolean }>(obj: T, old: T, fields: (keyof T & string)[]): FieldError[] {
  if (old.immutable !== true) return [];
  const errors: FieldError[] = [];
  const detail = 'field is immutable when `immutable` is set';
  if (obj.immutable !== true) errors.push(forbidden('immutable', detail));
  for (const f of fields) if (!jsonEqual(obj[f] ?? {}, old[f] ?? {})) errors.push(forbidden(f, detail));
  return errors;
}
