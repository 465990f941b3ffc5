/**
 * Mutators for the fuzz suite: of a JSON value (a node replaced by a value of another type, removed,
 * duplicated, given odd keys, nested deep), of its text (bytes flipped, cut, spliced; number texts
 * JSON cannot hold; keys given twice; lone surrogates as escapes and as raw bytes) and of binary
 * bodies (protobuf: bits, lengths, tags, truncation).
 */
import { EDGE_NUMBER_TEXTS, type Random, randomKey, randomString, randomValue } from './random.js';

type Json = unknown;

/** Every path to a node of the value (a path is the list of keys / indexes from the root). */
export function nodePaths(value: Json, max = 2000): (string | number)[][] {
  const out: (string | number)[][] = [];
  const walk = (v: Json, path: (string | number)[]) => {
    if (out.length >= max) return;
    out.push(path);
    if (Array.isArray(v)) v.forEach((c, i) => walk(c, [...path, i]));
    else if (v !== null && typeof v === 'object') for (const [k, c] of Object.entries(v)) walk(c, [...path, k]);
  };
  walk(value, []);
  return out;
}

function getAt(v: Json, path: (string | number)[]): Json {
  let cur: any = v;
  for (const k of path) cur = cur?.[k];
  return cur;
}

function setAt(root: Json, path: (string | number)[], value: Json): Json {
  if (path.length === 0) return value;
  const parent: any = getAt(root, path.slice(0, -1));
  if (parent !== null && typeof parent === 'object') {
    // defineProperty: a key named __proto__ becomes an own member, as JSON.parse makes it.
    Object.defineProperty(parent, path[path.length - 1], { value, enumerable: true, writable: true, configurable: true });
  }
  return root;
}

function removeAt(root: Json, path: (string | number)[]): Json {
  if (path.length === 0) return root;
  const parent: any = getAt(root, path.slice(0, -1));
  const key = path[path.length - 1];
  if (Array.isArray(parent)) parent.splice(key as number, 1);
  else if (parent !== null && typeof parent === 'object') delete parent[key];
  return root;
}

/** A value nested `depth` levels deep in arrays or objects (or both, alternating). */
export function nested(r: Random, depth: number, leaf: Json = 'x'): Json {
  const style = r.int(0, 2);
  let v = leaf;
  for (let i = 0; i < depth; i++) v = style === 0 || (style === 2 && i % 2) ? [v] : { a: v };
  return v;
}

/** Depths around the server's bound (1000) and far beyond it, for texts. */
export function nestingDepth(r: Random): number {
  return r.pick([10, 100, 999, 1000, 1001, 1002, 2000, 5000, 20_000]);
}

/** Depths around the server's bound for values: structuredClone and JSON.stringify of this process overflow their stack near 3000. */
export function valueDepth(r: Random): number {
  return r.pick([10, 100, 998, 999, 1000, 1001, 1200]);
}

/**
 * The most JSON text a mutated value may take. Past the server's body limit (3 MiB) is still tried, but
 * not without bound: copies of copies grew one value to 33 MB, and making its YAML held this process
 * (and so every lane's timing) for 18 s.
 */
export const MAX_MUTATED_BYTES = 4 * 2 ** 20;

/** The length of the value's JSON text, or Infinity when it cannot be written (too deep for this stack). */
function jsonLength(v: Json): number {
  try {
    return JSON.stringify(v)?.length ?? 0;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/** One structural mutation of a deep copy of the value, its JSON text at most MAX_MUTATED_BYTES. */
export function mutateValue(r: Random, value: Json, rounds = r.int(1, 4)): Json {
  let root = structuredClone(value);
  for (let i = 0; i < rounds; i++) {
    const before = root;
    root = mutateOnce(r, structuredClone(root));
    if (jsonLength(root) > MAX_MUTATED_BYTES) root = before;
  }
  return root;
}

function mutateOnce(r: Random, root: Json): Json {
  const paths = nodePaths(root);
  const path = r.pick(paths);
  const node = getAt(root, path);
  switch (r.int(0, 9)) {
    case 0: // a value of another type
    case 1:
      root = setAt(root, path, randomValue(r, 2));
      break;
    case 2:
      root = removeAt(root, path);
      break;
    case 3: // an odd key beside the others
      if (node !== null && typeof node === 'object' && !Array.isArray(node)) root = setAt(root, [...path, randomKey(r)], randomValue(r, 1));
      else root = setAt(root, path, randomValue(r, 1));
      break;
    case 4: // the same node again beside itself
      if (Array.isArray(node)) {
        const each = Math.max(jsonLength(node[0] ?? null), 1);
        const n = Math.min(r.int(1, r.chance(0.1) ? 500 : 3), Math.floor(MAX_MUTATED_BYTES / each));
        for (let k = 0; k < n; k++) node.push(structuredClone(node[0] ?? null));
      } else root = setAt(root, path, [node, node]);
      break;
    case 5:
      root = setAt(root, path, nested(r, r.chance(0.5) ? r.int(2, 50) : valueDepth(r), node ?? 'x'));
      break;
    case 6: // strings of odd characters, long or empty
      root = setAt(
        root,
        path,
        r.weighted([
          [5, randomString(r, 24)],
          [1, ''],
          [1, randomString(r, 3).repeat(r.int(1000, 40_000))],
        ]),
      );
      break;
    case 7: // the node's string, as a number or boolean, or the reverse
      root = setAt(root, path, typeof node === 'string' ? (r.chance(0.5) ? Number(node) || 7 : true) : textOf(node));
      break;
    case 8: // its type's wrapper: a scalar as an array or object
      root = setAt(root, path, r.chance(0.5) ? [node] : { value: node });
      break;
    default: // many keys
      if (node !== null && typeof node === 'object' && !Array.isArray(node)) {
        for (let n = r.int(10, r.chance(0.2) ? 5000 : 100); n > 0; n--) (node as any)[`k${n}-${randomString(r, 4)}`] = randomString(r, 8);
      } else root = setAt(root, path, null);
  }
  return root;
}

/** JSON text with number texts JSON.parse reads as Infinity, 0, an inexact integer, or refuses. */
function withEdgeNumber(r: Random, text: string): string {
  const spots = [...text.matchAll(/:(-?\d+(\.\d+)?|"[^"\\]*"|true|false|null)/g)];
  if (spots.length === 0) return text;
  const m = r.pick(spots);
  const at = m.index! + 1;
  return text.slice(0, at) + r.pick(EDGE_NUMBER_TEXTS) + text.slice(at + m[1].length);
}

/** JSON text with one of its members given twice (with another value) or a key repeated many times. */
function withDuplicateKey(r: Random, text: string): string {
  const keys = [...text.matchAll(/"([a-zA-Z]+)":/g)];
  if (keys.length === 0) return text;
  const m = r.pick(keys);
  const dup = `"${m[1]}":${JSON.stringify(randomValue(r, 1))},`.repeat(r.chance(0.1) ? r.int(100, 5000) : 1);
  return text.slice(0, m.index) + dup + text.slice(m.index);
}

/** JSON text with a lone surrogate as an escape (valid JSON, invalid UTF-16) or raw invalid UTF-8 in a string. */
function withBadUnicode(r: Random, text: string): Buffer {
  const spots = [...text.matchAll(/"[^"\\]{1,}"/g)];
  if (spots.length === 0) return Buffer.from(text);
  const m = r.pick(spots);
  const at = m.index! + 1 + r.int(0, m[0].length - 2);
  const esc = r.pick(['\\ud800', '\\udfff', '\\udc00\\ud800', '\\ud83d', '\\u0000', '\\ud800\\u0041', '\\uDBFF\\uDFFF']);
  if (r.chance(0.6)) return Buffer.from(text.slice(0, at) + esc + text.slice(at));
  const raw = r.pick([[0xed, 0xa0, 0x80], [0xed, 0xbf, 0xbf], [0xff], [0xc0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0x80]]);
  return Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from(raw), Buffer.from(text.slice(at))]);
}

/** A byte-level mutation: flips, cuts, splices, inserts. */
export function mutateBytes(r: Random, input: Buffer, rounds = r.int(1, 3)): Buffer {
  let b = Buffer.from(input);
  for (let i = 0; i < rounds && b.length > 0; i++) {
    const at = r.int(0, b.length - 1);
    switch (r.int(0, 6)) {
      case 0: // bit flips
        for (let n = r.int(1, 4); n > 0; n--) {
          const j = r.int(0, b.length - 1);
          b[j] ^= 1 << r.int(0, 7);
        }
        break;
      case 1: // truncation
        b = b.subarray(0, at);
        break;
      case 2: // random bytes
        b = Buffer.concat([b.subarray(0, at), Buffer.from(Array.from({ length: r.int(1, 8) }, () => r.int(0, 255))), b.subarray(at)]);
        break;
      case 3: {
        // a slice again
        const end = r.int(at, Math.min(b.length, at + 64));
        b = Buffer.concat([b.subarray(0, end), b.subarray(at, end), b.subarray(end)]);
        break;
      }
      case 4: // a slice removed
        b = Buffer.concat([b.subarray(0, at), b.subarray(Math.min(b.length, at + r.int(1, 16)))]);
        break;
      case 5: // an interesting byte
        b[at] = r.pick([0x00, 0xff, 0x7f, 0x80, 0x0a, 0x22, 0x5c, 0x7b, 0x7d, 0x5b, 0x5d, 0x3a, 0x2c]);
        break;
      default: // the body twice
        b = Buffer.concat([b, b]);
    }
  }
  return b;
}

/** A text-level mutation of JSON: numbers, duplicate keys, bad unicode, or bytes. */
export function mutateJsonText(r: Random, text: string): Buffer {
  switch (r.int(0, 4)) {
    case 0:
      return Buffer.from(withEdgeNumber(r, text));
    case 1:
      return Buffer.from(withDuplicateKey(r, text));
    case 2:
      return withBadUnicode(r, text);
    case 3:
      return Buffer.from(`${'['.repeat(nestingDepth(r))}${r.chance(0.5) ? ']'.repeat(r.int(0, 100)) : ''}`);
    default:
      return mutateBytes(r, Buffer.from(text));
  }
}

/** A value's text as String gives it; a value String cannot convert (an object whose toString is not a function, from an earlier mutation) as JSON. */
function textOf(value: unknown): string {
  try {
    return String(value);
  } catch {
    return JSON.stringify(value) ?? 'x';
  }
}
