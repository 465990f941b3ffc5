import type { ApiObject } from '../../../api/object.js';
import type { Strategy } from '../../../api/strategy.js';
import type { FieldError } from '../../../api/field-errors.js';
import { invalid, tooLong } from '../../../api/field-errors.js';
import { MAX_DATA_SIZE, validateDataKeys, validateImmutableData } from '../data-keys.js';

type Data = Record<string, string> | undefined;

function size(obj: { data?: Data; binaryData?: Data }): number {
  let n = 0;
  for (const [k, v] of Object.entries(obj.data ?? {})) n += k.length + Buffer.byteLength(v);
  for (const [k, v] of Object.entries(obj.binaryData ?? {})) n += k.length + Buffer.from(v, 'base64').length;
  return n;
}

/**
 * A bound on size() from the strings' lengths alone (a UTF-16 unit is at most 3 UTF-8 bytes, base64
 * decodes to at most 3 bytes per 4 characters): when it fits, the exact size does too, unmeasured.
 */
function sizeBound(obj: { data?: Data; binaryData?: Data }): number {
  let n = 0;
  for (const [k, v] of Object.entries(obj.data ?? {})) n += k.length + 3 * v.length;
  for (const [k, v] of Object.entries(obj.binaryData ?? {})) n += k.length + Math.ceil((3 * v.length) / 4);
  return n;
}

function validateConfigMap(obj: ApiObject): FieldError[] {
  const data = obj.data as Data;
  const binaryData = obj.binaryData as Data;
  const errors: FieldError[] = [...validateDataKeys('data', data), ...validateDataKeys('binaryData', binaryData)];
  for (const key of Object.keys(binaryData ?? {})) {
    if (data && Object.hasOwn(data, key)) errors.push(invalid('binaryData', key, 'duplicate of key present in data'));
  }
  if (sizeBound({ data, binaryData }) > MAX_DATA_SIZE && size({ data, binaryData }) > MAX_DATA_SIZE)
    errors.push(tooLong('', '', MAX_DATA_SIZE));
  return errors;
}

/** ConfigMap: key rules, no key in both data and binaryData, 1 MiB, `immutable`. */
export const configMapStrategy: Strategy = {
  validate: validateConfigMap,
  validateUpdate: (obj, old) => [...validateConfigMap(obj), ...validateImmutableData(obj, old, ['data', 'binaryData'])],
};
