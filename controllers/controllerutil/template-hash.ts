/** The hash that names a Pod template's generation (Deployments' pod-template-hash, StatefulSets' revisions). */
import type { PodTemplate } from './pod-template.js';

/** A JSON string with object keys sorted, so equal templates hash alike. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** ComputeHash: FNV-1a (32 bit) of the template and the collision count, spelled in safe characters. */
export function computeHash(template: PodTemplate | Record<string, unknown> | undefined, collisionCount?: number): string {
  let h = 0x811c9dc5;
  const feed = (s: string) => {
    for (const byte of Buffer.from(s, 'utf8')) {
      h ^= byte;
      h = Math.imul(h, 0x01000193) >>> 0;
    }
  };
  feed(canonical(template ?? {}));
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
