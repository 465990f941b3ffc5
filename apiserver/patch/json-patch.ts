// RFC 6902 JSON Patch as Kubernetes applies it: a port of gopkg.in/evanphx/json-patch.v4 (the library behind
// `kubectl patch --type=json`), including its error texts and its leniencies, on plain JSON values.

import { goQuote } from '../api/field-errors.js';
import { messageOf } from '../api/thrown.js';

/**
 * Why a patch could not be applied, as the HTTP layer needs it:
 * - bad-request (400): the patch document is malformed;
 * - invalid (422): an operation does not apply to the object;
 * - test-failed (422): a `test` operation did not hold;
 * - too-large (413): more operations than Kubernetes allows;
 * - internal (500): Kubernetes answers with an internal error (strategic merge patch only).
 */
export type PatchErrorKind = 'bad-request' | 'invalid' | 'test-failed' | 'too-large' | 'internal';

/** A patch failure; the message is the text Kubernetes reports (in the status message or its cause). */
export class PatchError extends Error {
  constructor(
    readonly kind: PatchErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'PatchError';
  }
}

/** Kubernetes' maxJSONPatchOperations. */
export const MAX_JSON_PATCH_OPERATIONS = 10000;

/**
 * Kubernetes' JSONPatchMaxCopyBytes (3 MiB, the json-patch library's AccumulatedCopySizeLimit): the most
 * bytes, as JSON, that the `copy` operations of one patch may add. Without it each copy can double the
 * document (40 operations of a few bytes each ask for terabytes).
 */
export const MAX_JSON_PATCH_COPY_BYTES = 3 * 1024 * 1024;

/**
 * How deep a patched document may nest: request bodies' limit (endpoints' MAX_JSON_DEPTH), which what
 * follows the patch relies on. Copies into their own leaves double the depth (nine of them in 1 MB of patch
 * made 500,000 levels, past what structuredClone can take); Kubernetes refuses the result when it decodes it,
 * past its own 10,000.
 */
export const MAX_PATCHED_DEPTH = 1000;

function tooDeep(): PatchError {
  return new PatchError('invalid', `the patched object exceeded max depth of ${MAX_PATCHED_DEPTH}`);
}

type JsonObject = Record<string, unknown>;
type Container = JsonObject | unknown[];

const MISSING = 'missing value';
const INVALID_INDEX = 'invalid index referenced';

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The Go type name encoding/json reports for a JSON value it cannot unmarshal. */
function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v === 'object' ? 'object' : typeof v;
}

/** Sets an own property, also for the key `__proto__`. */
function setOwn(obj: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}

/** Characters Go's encoding/json writes as more than their UTF-8 bytes (HTML-escaped, as json.Marshal). */
const ESCAPED = /["\\\u0000-\u001f<>&\u2028\u2029]/;

/** The extra bytes of one character's escape beyond its UTF-8 bytes: `\"`, `\n`, `\u003c`... */
function escapeExtra(code: number): number {
  if (code === 0x22 || code === 0x5c || code === 0x0a || code === 0x0d || code === 0x09) return 1;
  if (code < 0x20 || code === 0x3c || code === 0x3e || code === 0x26) return 5;
  if (code === 0x2028 || code === 0x2029) return 3;
  return 0;
}

/** A string's length as a JSON string in Go (quotes, escapes, UTF-8; a lone surrogate is U+FFFD, 3 bytes). */
function jsonStringSize(s: string): number {
  let size = Buffer.byteLength(s, 'utf8') + 2;
  if (!ESCAPED.test(s)) return size;
  for (let i = 0; i < s.length; i++) size += escapeExtra(s.charCodeAt(i));
  return size;
}

/**
 * The length of a value's compact JSON encoding (what the Go library counts for a copy) and its depth (1 for
 * an object or array of scalars), counted by walking it, not by serializing it, without recursion. A walk
 * never costs more than the value's own size, which the body limit and the copy limit itself bound.
 */
export function jsonMeasure(value: unknown): { size: number; depth: number } {
  let size = 0;
  let depth = 0;
  const stack: unknown[] = [value];
  const depths: number[] = [1];
  while (stack.length) {
    const v = stack.pop();
    const d = depths.pop()!;
    if (typeof v === 'string') size += jsonStringSize(v);
    else if (typeof v === 'number') size += String(v).length;
    else if (typeof v === 'boolean') size += v ? 4 : 5;
    else if (v === null || v === undefined) size += 4;
    else {
      if (d > depth) depth = d;
      if (Array.isArray(v)) {
        // Brackets and the commas between elements.
        size += 2 + Math.max(v.length - 1, 0);
        for (const e of v) {
          stack.push(e);
          depths.push(d + 1);
        }
      } else {
        const keys = Object.keys(v);
        // Braces, commas, and each key with its colon.
        size += 2 + Math.max(keys.length - 1, 0);
        for (const k of keys) {
          size += jsonStringSize(k) + 1;
          stack.push((v as JsonObject)[k]);
          depths.push(d + 1);
        }
      }
    }
  }
  return { size, depth };
}

export function jsonSize(value: unknown): number {
  return jsonMeasure(value).size;
}

/** Whether a value nests deeper than `max` (1 for an object or array of scalars); walks its containers only. */
function deeperThan(value: unknown, max: number): boolean {
  const stack: unknown[] = [value];
  const depths: number[] = [1];
  while (stack.length) {
    const v = stack.pop();
    const d = depths.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (d > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === 'object' && child !== null) {
        stack.push(child);
        depths.push(d + 1);
      }
    }
  }
  return false;
}

/** An error inside an operation: `error in add for path: '/a': <cause>`-style wrapping is done by the caller. */
class OpError extends Error {}

/** strconv.Atoi, with its error texts. */
function atoi(key: string): bigint {
  if (!/^[+-]?\d+$/.test(key)) throw new OpError(`strconv.Atoi: parsing ${goQuote(key)}: invalid syntax`);
  const n = BigInt(key);
  if (n < -(2n ** 63n) || n >= 2n ** 63n) throw new OpError(`strconv.Atoi: parsing ${goQuote(key)}: value out of range`);
  return n;
}

function invalidIndex(idx: bigint): OpError {
  return new OpError(`Unable to access invalid index: ${idx}: ${INVALID_INDEX}`);
}

/** partialArray.get / partialDoc.get: a missing object key reads as undefined; array indexes are checked. */
function get(c: Container, key: string): unknown {
  if (!Array.isArray(c)) return Object.hasOwn(c, key) ? c[key] : undefined;
  let idx = atoi(key);
  const len = BigInt(c.length);
  if (idx < 0n) {
    if (idx < -len) throw invalidIndex(idx);
    idx += len;
  }
  if (idx >= len) throw invalidIndex(idx);
  return c[Number(idx)];
}

/** partialArray.add / partialDoc.add: `-` appends, an index inserts (negative counts from the end). */
function add(c: Container, key: string, value: unknown): void {
  if (!Array.isArray(c)) {
    setOwn(c, key, value);
    return;
  }
  if (key === '-') {
    c.push(value);
    return;
  }
  let idx: bigint;
  try {
    idx = atoi(key);
  } catch (err) {
    throw new OpError(`value was not a proper array index: '${key}': ${messageOf(err)}`);
  }
  const size = BigInt(c.length + 1);
  if (idx >= size) throw invalidIndex(idx);
  if (idx < 0n) {
    if (idx < -size) throw invalidIndex(idx);
    idx += size;
  }
  c.splice(Number(idx), 0, value);
}

/** partialArray.set / partialDoc.set, used by replace after a successful get. */
function set(c: Container, key: string, value: unknown): void {
  if (!Array.isArray(c)) {
    setOwn(c, key, value);
    return;
  }
  let idx = atoi(key);
  if (idx < 0n) idx += BigInt(c.length);
  c[Number(idx)] = value;
}

/** partialArray.remove / partialDoc.remove. */
function remove(c: Container, key: string): void {
  if (!Array.isArray(c)) {
    if (!Object.hasOwn(c, key)) throw new OpError(`Unable to remove nonexistent key: ${key}: ${MISSING}`);
    delete c[key];
    return;
  }
  let idx = atoi(key);
  const len = BigInt(c.length);
  if (idx >= len) throw invalidIndex(idx);
  if (idx < 0n) {
    if (idx < -len) throw invalidIndex(idx);
    idx += len;
  }
  c.splice(Number(idx), 1);
}

/** RFC 6901 reference token decoding. */
function decodeKey(token: string): string {
  return token.replace(/~[01]/g, (m) => (m === '~1' ? '/' : '~'));
}

/**
 * findObject: the container holding the path's last token, and that token. Like the Go library, the text
 * before the first `/` is ignored, and a path without `/` (including the root "") finds nothing.
 */
function findObject(doc: unknown, path: string): { con: Container; key: string } | undefined {
  const split = path.split('/');
  if (split.length < 2) return undefined;
  let cur: unknown = doc;
  for (const part of split.slice(1, -1)) {
    if (!isObject(cur) && !Array.isArray(cur)) return undefined;
    let next: unknown;
    try {
      next = get(cur, decodeKey(part));
    } catch {
      return undefined;
    }
    if (next === undefined || next === null) return undefined;
    cur = next;
  }
  if (!isObject(cur) && !Array.isArray(cur)) return undefined;
  return { con: cur, key: decodeKey(split[split.length - 1]) };
}

/** JSON equality (objects compare by keys, arrays by position). */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return a === b;
}

/** A string member of an operation: `path` or `from`. Missing (or null) and non-string values are errors. */
function stringMember(op: JsonObject, member: 'path' | 'from'): string {
  const v = Object.hasOwn(op, member) ? op[member] : undefined;
  if (v === undefined || v === null) {
    throw new OpError(member === 'path' ? `operation missing path field: ${MISSING}` : `operation, missing from field: ${MISSING}`);
  }
  if (typeof v !== 'string') throw new OpError(`json: cannot unmarshal ${jsonKind(v)} into Go value of type string`);
  return v;
}

/** An operation's value; a missing value is null, as in the Go library. */
function operationValue(op: JsonObject): unknown {
  return Object.hasOwn(op, 'value') && op.value !== undefined ? structuredClone(op.value) : null;
}

/** Reads `path`, turning a failure into `<what> failed to decode path: <cause or "missing value">`. */
function decodeMember(op: JsonObject, member: 'path' | 'from', what: string, keepCause: boolean): string {
  try {
    return stringMember(op, member);
  } catch (err) {
    throw new PatchError('invalid', `${what} failed to decode ${member}: ${keepCause ? messageOf(err) : MISSING}`);
  }
}

/** Runs an operation step, wrapping an OpError as `<prefix>: <cause>`. */
function wrap<T>(prefix: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof OpError) throw new PatchError('invalid', `${prefix}: ${err.message}`);
    throw err;
  }
}

function missing(message: string): PatchError {
  return new PatchError('invalid', `${message}: ${MISSING}`);
}

/** What the operations of one patch share: the bytes its copies have added so far. */
interface PatchRun {
  copiedBytes: number;
  maxCopyBytes: number;
}

/** Applies one operation to `doc` in place; returns the new document (replace of "" swaps it). */
function applyOperation(doc: unknown, op: JsonObject, run: PatchRun): unknown {
  const kind = typeof op.op === 'string' && Object.hasOwn(op, 'op') ? op.op : 'unknown';
  switch (kind) {
    case 'add': {
      const path = decodeMember(op, 'path', 'add operation', false);
      const target = findObject(doc, path);
      if (!target) throw missing(`add operation does not apply: doc is missing path: "${path}"`);
      wrap(`error in add for path: '${path}'`, () => add(target.con, target.key, operationValue(op)));
      return doc;
    }
    case 'remove': {
      const path = decodeMember(op, 'path', 'remove operation', false);
      const target = findObject(doc, path);
      if (!target) throw missing(`remove operation does not apply: doc is missing path: "${path}"`);
      wrap(`error in remove for path: '${path}'`, () => remove(target.con, target.key));
      return doc;
    }
    case 'replace': {
      const path = decodeMember(op, 'path', 'replace operation', true);
      if (path === '') {
        // The Go library swaps in an object or array value and silently ignores any other value.
        const value = operationValue(op);
        return isObject(value) || Array.isArray(value) ? value : doc;
      }
      const target = findObject(doc, path);
      if (!target) throw missing(`replace operation does not apply: doc is missing path: ${path}`);
      try {
        get(target.con, target.key);
      } catch {
        throw missing(`replace operation does not apply: doc is missing key: ${path}`);
      }
      set(target.con, target.key, operationValue(op));
      return doc;
    }
    case 'move': {
      const from = decodeMember(op, 'from', 'move operation', true);
      const source = findObject(doc, from);
      if (!source) throw missing(`move operation does not apply: doc is missing from path: ${from}`);
      const value = wrap(`error in move for path: '${source.key}'`, () => get(source.con, source.key));
      wrap(`error in move for path: '${source.key}'`, () => remove(source.con, source.key));
      const path = decodeMember(op, 'path', 'move operation', true);
      const target = findObject(doc, path);
      if (!target) throw missing(`move operation does not apply: doc is missing destination path: ${path}`);
      wrap(`error in move for path: '${path}'`, () => add(target.con, target.key, value ?? null));
      return doc;
    }
    case 'test': {
      const path = decodeMember(op, 'path', 'test operation', true);
      let actual: unknown = doc;
      if (path !== '') {
        const target = findObject(doc, path);
        if (!target) throw missing(`test operation does not apply: is missing path: ${path}`);
        actual = wrap(`error in test for path: '${path}'`, () => get(target.con, target.key));
      }
      if (!jsonEqual(actual ?? null, operationValue(op))) throw new PatchError('test-failed', `testing value ${path} failed: test failed`);
      return doc;
    }
    case 'copy': {
      const from = decodeMember(op, 'from', 'copy operation', true);
      const source = findObject(doc, from);
      if (!source) throw missing(`copy operation does not apply: doc is missing from path: ${from}`);
      const value = wrap(`error in copy for from: '${from}'`, () => get(source.con, source.key));
      const path = decodeMember(op, 'path', 'copy operation', false);
      const target = findObject(doc, path);
      if (!target) throw missing(`copy operation does not apply: doc is missing destination path: ${path}`);
      // Counted before the value is cloned, so a copy past a limit costs no memory.
      const { size, depth } = jsonMeasure(value ?? null);
      run.copiedBytes += size;
      if (run.maxCopyBytes > 0 && run.copiedBytes > run.maxCopyBytes) {
        throw new PatchError(
          'invalid',
          `Unable to complete the copy, the accumulated size increase of copy is ${run.copiedBytes}, exceeding the limit ${run.maxCopyBytes}`,
        );
      }
      // The copy's root sits one level below its container, which is as deep as the path is long.
      if (path.split('/').length - 1 + depth > MAX_PATCHED_DEPTH) throw tooDeep();
      wrap('error while adding value during copy', () => add(target.con, target.key, structuredClone(value ?? null)));
      return doc;
    }
    default:
      throw new PatchError('invalid', `Unexpected kind: ${String(kind)}`);
  }
}

export interface JsonPatchOptions {
  /** The most bytes the patch's copies may add (default MAX_JSON_PATCH_COPY_BYTES; 0 = no limit). */
  maxCopyBytes?: number;
}

/**
 * Applies an RFC 6902 patch (already parsed from JSON) to a JSON document and returns the result; neither
 * input is modified. Throws PatchError: bad-request when the patch is not an array of objects, too-large past
 * MAX_JSON_PATCH_OPERATIONS, test-failed for a failing `test`, invalid for any other operation that does not apply
 * and for copies that add more than MAX_JSON_PATCH_COPY_BYTES.
 */
export function applyJsonPatch(doc: unknown, patch: unknown, options: JsonPatchOptions = {}): unknown {
  if (patch === null) return structuredClone(doc);
  if (!Array.isArray(patch)) {
    throw new PatchError('bad-request', `json: cannot unmarshal ${jsonKind(patch)} into Go value of type jsonpatch.Patch`);
  }
  for (const op of patch) {
    if (op !== null && !isObject(op)) {
      throw new PatchError('bad-request', `json: cannot unmarshal ${jsonKind(op)} into Go value of type jsonpatch.Operation`);
    }
  }
  if (patch.length > MAX_JSON_PATCH_OPERATIONS) {
    throw new PatchError(
      'too-large',
      `The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${patch.length}`,
    );
  }
  const run: PatchRun = { copiedBytes: 0, maxCopyBytes: options.maxCopyBytes ?? MAX_JSON_PATCH_COPY_BYTES };
  let result = structuredClone(doc);
  for (const op of patch as (JsonObject | null)[]) result = applyOperation(result, op ?? {}, run);
  // Adds and moves into deep paths nest too, without copying: one walk of the result.
  if (deeperThan(result, MAX_PATCHED_DEPTH)) throw tooDeep();
  return result;
}
