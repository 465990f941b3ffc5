/** The hash that names a Pod template's generation (Deployments' pod-template-hash, StatefulSets' revisions). */
import { isPlainObject } from '../../apiserver/api/object.js';
import type { PodTemplate } from './pod-template.js';

/**
 * Fields of a Pod template whose Go type is a struct held by value (ObjectMeta, PodSpec,
 * ResourceRequirements, PersistentVolumeClaimSpec, PodAffinityTerm, NodeSelectorTerm, ClaimSource):
 * Go decodes `{}` and absent alike into the zero struct. Pointer structs (securityContext, probes,
 * affinity…) are not here: nil and `&{}` differ in Go, so `{}` and absent differ there too.
 */
const VALUE_STRUCTS = new Set(['metadata', 'spec', 'resources', 'podAffinityTerm', 'preference', 'source']);

/**
 * Maps of a Pod template (all omitempty in Go): an empty one is read back as none. Their entries are
 * strings, left as they are.
 */
const MAPS = new Set([
  'labels',
  'annotations',
  'nodeSelector',
  'limits',
  'requests',
  'overhead',
  'matchLabels',
  'volumeAttributes',
  'options',
]);

/**
 * A Pod template as Kubernetes' controllers hold it once decoded into Go structs: null is the zero
 * value (absent), empty lists and maps are nil (Semantic.DeepEqual and the protobuf round trip make
 * them one), and an empty value-held struct is its zero value. So the template kubectl sends back in
 * `rollout undo` (marshalled from Go: `resources: {}`, `creationTimestamp: null`) is the one the old
 * ReplicaSet holds without them. Undefined when the whole value is zero.
 */
export function asDecoded(v: unknown, key?: string): unknown {
  if (v === null || v === undefined) return undefined;
  if (Array.isArray(v)) return v.length === 0 ? undefined : v.map((x) => (x !== null && typeof x === 'object' ? (asDecoded(x) ?? {}) : x));
  if (!isPlainObject(v)) return v;
  const o = v;
  if (key !== undefined && MAPS.has(key)) return Object.keys(o).length === 0 ? undefined : o;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o)) {
    const d = asDecoded(o[k], k);
    if (d !== undefined) out[k] = d;
  }
  if (Object.keys(out).length === 0 && key !== undefined && VALUE_STRUCTS.has(key)) return undefined;
  return out;
}

/** A JSON string with object keys sorted, so equal templates hash alike. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isPlainObject(v)) {
    const o = v;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** ComputeHash: FNV-1a (32 bit) of the decoded template and the collision count, spelled in safe characters. */
export function computeHash(template: PodTemplate | Record<string, unknown> | undefined, collisionCount?: number): string {
  let h = 0x811c9dc5;
  const feed = (s: string) => {
    for (const byte of Buffer.from(s, 'utf8')) {
      h ^= byte;
      h = Math.imul(h, 0x01000193) >>> 0;
    }
  };
  feed(canonical(asDecoded(template) ?? {}));
  if (collisionCount !== undefined) {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(collisionCount >>> 0);
    for (const byte of b) {
      h ^= byte;
      h = Math.imul(h, 0x01000193) >>> 0;
    }
  }
  return [...String(h)].map((c) => SAFE_ALPHABET[c.charCodeAt(0) % SAFE_ALPHABET.length]).join('');
}
