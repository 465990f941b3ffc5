/**
 * An RFC 6902 JSON patch that turns one JSON document into another: objects are compared member by
 * member (removes, then adds and changes, in key order), anything else that differs — a scalar, an
 * array, a change of type — is replaced whole. Applying the result to `from` gives a document equal
 * to `to` (the revision ledger's history relies on it).
 */

export type JsonPatchOperation =
  | { op: 'add'; path: string; value: unknown }
  | { op: 'remove'; path: string }
  | { op: 'replace'; path: string; value: unknown };

export function jsonDiff(from: unknown, to: unknown): JsonPatchOperation[] {
  const ops: JsonPatchOperation[] = [];
  diffInto(from, to, '', ops);
  return ops;
}

function diffInto(from: unknown, to: unknown, path: string, ops: JsonPatchOperation[]): void {
  if (isObject(from) && isObject(to)) {
    for (const key of Object.keys(from).sort()) {
      if (!Object.hasOwn(to, key)) ops.push({ op: 'remove', path: `${path}/${pointerToken(key)}` });
    }
    for (const key of Object.keys(to).sort()) {
      const a = from[key];
      const b = to[key];
      if (!Object.hasOwn(from, key)) ops.push({ op: 'add', path: `${path}/${pointerToken(key)}`, value: b });
      // The same scalar (most members of a revision): nothing to say, no path to build.
      else if (a !== b) diffInto(a, b, `${path}/${pointerToken(key)}`, ops);
    }
    return;
  }
  if (!jsonEqual(from, to)) ops.push({ op: 'replace', path, value: to });
}

/** A JSON pointer reference token (RFC 6901): '~' → '~0', '/' → '~1'. */
function pointerToken(key: string): string {
  return key.includes('~') || key.includes('/') ? key.replaceAll('~', '~0').replaceAll('/', '~1') : key;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}
