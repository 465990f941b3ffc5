/**
 * Strings whose schema format CEL sees as another type, converted before rules run, as Kubernetes
 * declares them (crd/cel-types.ts): date-time and date become timestamps, duration a duration, byte
 * the decoded bytes. A string that does not parse stays a string (schema validation reports it).
 */
import type { Schema } from '../../../api/schema.js';
import { compileProgram } from '../../../runtime/cel.js';
import { ownProperty } from '../../../api/schema.js';

const toTimestamp = compileProgram('timestamp(v)').program;
const toDuration = compileProgram('duration(v)').program;

function convert(v: string, format: string | undefined): unknown {
  let out: unknown = v;
  if (format === 'date-time') out = toTimestamp({ v });
  else if (format === 'date') out = toTimestamp({ v: `${v}T00:00:00Z` });
  else if (format === 'duration') out = toDuration({ v });
  else if (format === 'byte') out = new Uint8Array(Buffer.from(v, 'base64'));
  return out instanceof Error ? v : out;
}

const FORMATS = new Set(['date-time', 'date', 'duration', 'byte']);

/** Whether a schema node or any under it has a format CEL converts. */
export function hasCelFormats(s: Schema, depth = 0): boolean {
  if (depth > 64) return false;
  if (s.type === 'string' && FORMATS.has(s.format ?? '') && !s['x-orch-int-or-string']) return true;
  return (
    Object.values(s.properties ?? {}).some((c) => hasCelFormats(c, depth + 1)) ||
    (!!s.items && hasCelFormats(s.items, depth + 1)) ||
    (typeof s.additionalProperties === 'object' && hasCelFormats(s.additionalProperties, depth + 1))
  );
}

/** A copy of a value with its formatted strings converted, following the schema. */
export function withCelFormats(value: unknown, s: Schema, depth = 0): unknown {
  if (depth > 64 || value === null || value === undefined) return value;
  if (typeof value === 'string') return s.type === 'string' && !s['x-orch-int-or-string'] ? convert(value, s.format) : value;
  if (Array.isArray(value)) return s.items ? value.map((v) => withCelFormats(v, s.items as Schema, depth + 1)) : value;
  if (typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const child = ownProperty(s.properties, k) ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
    out[k] = child ? withCelFormats(v, child, depth + 1) : v;
  }
  return out;
}
