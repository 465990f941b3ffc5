import { type Strategy, typedStrategy } from '../../../api/strategy.js';
import type { ConfigMap } from '../../../api/generated/types.js';
import type { FieldError } from '../../../api/field-errors.js';
import { invalid, tooLong } from '../../../api/field-errors.js';
import { MAX_DATA_SIZE, validateDataKeys, validateImmutableData } from '../data-keys.js';

type Data = Record<string, string> | undefined;

/**
 * The bytes of the values (Kubernetes counts values only, not keys), in one pass without
 * intermediate arrays (100,000 keys are common enough in generated ConfigMaps). From the strings'
 * lengths first (a UTF-16 unit is at most 3 UTF-8 bytes; base64 decodes to at most 3 bytes per 4
 * characters); measured exactly only when that bound is over the limit.
 */
function tooLarge(data: Data, binaryData: Data): boolean {
  let bound = 0;
  for (const k in data) bound += 3 * data[k].length;
  for (const k in binaryData) bound += Math.ceil((3 * binaryData[k].length) / 4);
  if (bound <= MAX_DATA_SIZE) return false;
  let n = 0;
  for (const k in data) n += Buffer.byteLength(data[k]);
  for (const k in binaryData) n += Buffer.byteLength(binaryData[k], 'base64');
  return n > MAX_DATA_SIZE;
}

function validateConfigMap(obj: ConfigMap): FieldError[] {
  const { data, binaryData } = obj;
  const errors: FieldError[] = [...validateDataKeys('data', data), ...validateDataKeys('binaryData', binaryData)];
  for (const key of Object.keys(binaryData ?? {})) {
    if (data && Object.hasOwn(data, key)) errors.push(invalid('binaryData', key, 'duplicate of key present in data'));
  }
  if (tooLarge(data, binaryData)) errors.push(tooLong('', '', MAX_DATA_SIZE));
  return errors;
}

/** ConfigMap: key rules, no key in both data and binaryData, 1 MiB, `immutable`. */
export const configMapStrategy: Strategy = typedStrategy<ConfigMap>({
  validate: validateConfigMap,
  validateUpdate: (obj, old) => [...validateConfigMap(obj), ...validateImmutableData(obj, old, ['data', 'binaryData'])],
});
