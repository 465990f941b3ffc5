/**
 * metav1.ObjectMeta as it appears in JSON, for code that reads or validates object metadata: the
 * generated types (api/generated/types.ts), so every kind's `metadata` and ApiObject's are one type.
 * Timestamps are RFC 3339 strings. `managedFields[].fieldsV1` is a JSON object (FieldsV1 in the
 * reference schema); code that decodes one from a request still takes it as unknown
 * (fieldmanager/fields-v1.ts), and that is where a value that is not an object is refused.
 */
export type { ManagedFieldsEntry, ObjectMeta, OwnerReference } from './generated/types.js';

/** The last second formatted: every write stamps the current second, often several times. */
let lastSecond = Number.NaN;
let lastText = '';

/**
 * A Time written as null: metav1.Time's zero value serializes so (an unset lastProbeTime, a computed
 * object's creationTimestamp), which the generated types, saying string, cannot express.
 */
export const NULL_TIME = null as unknown as string;

/** RFC 3339 with second precision, as metav1.Time serializes. */
export function timestamp(d: Date): string {
  const second = Math.floor(d.getTime() / 1000);
  if (second !== lastSecond) {
    lastText = d.toISOString().replace(/\.\d{3}Z$/, 'Z');
    lastSecond = second;
  }
  return lastText;
}
