// Kubernetes' strategic merge patch (k8s.io/apimachinery/pkg/util/strategicpatch, server side:
// StrategicMergeMapPatch with MergeParallelList and IgnoreUnmatchedNulls), driven by a caller-supplied
// lookup of each field's patch strategy and merge key. Error texts and HTTP classes follow Kubernetes.

import { formatGoNumber } from '../api/field-errors.js';
import { PatchError } from './json-patch.js';

/** A field's patch metadata (x-kubernetes-patch-strategy / -merge-key, x-kubernetes-list-type / -map-keys). */
export interface PatchMeta {
  /** 'merge' | 'replace' | 'retainKeys' | 'merge,retainKeys' */
  patchStrategy?: string;
  patchMergeKey?: string;
  /** Carried for server-side apply; strategic merge patch, like Kubernetes', uses only patchStrategy and patchMergeKey. */
  listType?: 'atomic' | 'set' | 'map';
  mapKeys?: string[];
}

/** Finds the patch metadata of a field by its path of field names from the root (list indices omitted). */
export interface PatchSchema {
  lookup(path: string[]): PatchMeta | undefined;
}

/** A schema from a table keyed by dotted paths, e.g. `{ 'spec.containers': { patchStrategy: 'merge', patchMergeKey: 'name' } }`. */
export function newPatchSchemaFromTable(table: Record<string, PatchMeta>): PatchSchema {
  return { lookup: (path) => (Object.hasOwn(table, path.join('.')) ? table[path.join('.')] : undefined) };
}

type JsonMap = Record<string, unknown>;

const DIRECTIVE_MARKER = '$patch';
const DELETE_DIRECTIVE = 'delete';
const REPLACE_DIRECTIVE = 'replace';
const MERGE_DIRECTIVE = 'merge';
const RETAIN_KEYS_STRATEGY = 'retainKeys';
const RETAIN_KEYS_DIRECTIVE = '$retainKeys';
const DELETE_FROM_PRIMITIVE_LIST_PREFIX = '$deleteFromPrimitiveList';
const SET_ELEMENT_ORDER_PREFIX = '$setElementOrder';

const ERR_BAD_JSON_DOC = 'invalid JSON document';
const ERR_NO_LIST_OF_LISTS = 'lists of lists are not supported';
const ERR_BAD_PRIMITIVE_LIST = 'invalid patch format of primitive list';
const ERR_BAD_RETAIN_KEYS = 'invalid patch format of retainKeys';
const ERR_BAD_SET_ELEMENT_ORDER = 'invalid patch format of setElementOrder list';

function isMap(v: unknown): v is JsonMap {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function getOwn(m: JsonMap, key: string): unknown {
  return Object.hasOwn(m, key) ? m[key] : undefined;
}

/** Sets an own property, also for the key `__proto__`. */
function setOwn(m: JsonMap, key: string, value: unknown): void {
  Object.defineProperty(m, key, { value, writable: true, enumerable: true, configurable: true });
}

function internal(message: string): PatchError {
  return new PatchError('internal', message);
}

// ---- Go formatting, for error texts -------------------------------------------------------------

/** The Go type of a decoded JSON value (Kubernetes decodes integral numbers as int64). */
function goType(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return '[]interface {}';
  if (isMap(v)) return 'map[string]interface {}';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  return typeof v === 'boolean' ? 'bool' : 'string';
}

/** Go's %v of a decoded JSON value: `map[a:1 b:[x y]]`, keys sorted. */
function goV(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goV).join(' ')}]`;
  if (isMap(v)) {
    const keys = Object.keys(v).sort();
    return `map[${keys.map((k) => `${k}:${goV(v[k])}`).join(' ')}]`;
  }
  return typeof v === 'number' ? formatGoNumber(v) : String(v);
}

/** Go's %s of a value: strings as is, other values as `%!s(type=value)`. */
function goS(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return '%!s(<nil>)';
  return isMap(v) || Array.isArray(v) ? goV(v) : `%!s(${goType(v)}=${goV(v)})`;
}

/** mergepatch.ErrBadArgType. */
function errBadArgType(expected: string, actual: unknown): PatchError {
  const actualType = actual === null || actual === undefined ? '%!s(<nil>)' : goType(actual);
  return internal(`expected a ${expected}, but received a ${actualType}`);
}

/** mergepatch.ErrNoMergeKey. */
function errNoMergeKey(m: JsonMap, key: string): PatchError {
  return internal(`map: ${goV(m)} does not contain declared merge key: ${key}`);
}

/** mergepatch.ErrBadPatchType. */
function errBadPatchType(t: unknown, m: JsonMap): PatchError {
  return internal(`unknown patch type: ${goS(t)} in map: ${goV(m)}`);
}

// ---- schema --------------------------------------------------------------------------------------

interface FieldStrategy {
  patchStrategy: string;
  mergeKey: string;
}

/** The field's patch strategy with retainKeys split off (extractRetainKeysPatchStrategy) and its merge key. */
function strategyOf(schema: PatchSchema, path: string[]): FieldStrategy {
  const meta = schema.lookup(path);
  const strategies = meta?.patchStrategy ? meta.patchStrategy.split(',') : [];
  const mergeKey = meta?.patchMergeKey ?? '';
  switch (strategies.length) {
    case 0:
      return { patchStrategy: '', mergeKey };
    case 1:
      return { patchStrategy: strategies[0] === RETAIN_KEYS_STRATEGY ? '' : strategies[0], mergeKey };
    case 2:
      if (strategies[0] === RETAIN_KEYS_STRATEGY) return { patchStrategy: strategies[1], mergeKey };
      if (strategies[1] === RETAIN_KEYS_STRATEGY) return { patchStrategy: strategies[0], mergeKey };
      break;
  }
  throw internal(`unexpected patch strategy: [${strategies.join(' ')}]`);
}

// ---- the merge -----------------------------------------------------------------------------------

/** Runs the merge algorithm over (already copied) documents, which it modifies. */
class Merger {
  constructor(private readonly schema: PatchSchema) {}

  /** mergeMap: merges `patch` into `original` (both owned by the merger) and returns the result. */
  mergeMap(original: JsonMap, patch: JsonMap, path: string[]): JsonMap {
    if (Object.hasOwn(patch, DIRECTIVE_MARKER)) return this.handleDirectiveInMergeMap(patch, path);
    this.applyRetainKeysDirective(original, patch);
    this.mergePatchIntoOriginal(original, patch, path);

    for (const [patchKey, patchV] of Object.entries(patch)) {
      let k = patchKey;
      let isDeleteList = false;
      if (k.startsWith(DELETE_FROM_PRIMITIVE_LIST_PREFIX)) {
        k = extractKey(k, DELETE_FROM_PRIMITIVE_LIST_PREFIX, ERR_BAD_PRIMITIVE_LIST);
        isDeleteList = true;
      } else if (k.startsWith('$')) {
        throw new PatchError('bad-request', `unknown patch directive: ${k}`);
      }
      if (patchV === null) {
        delete original[k];
        continue;
      }
      const fieldPath = [...path, k];
      if (!Object.hasOwn(original, k) || goType(original[k]) !== goType(patchV)) {
        if (!isDeleteList) setOwn(original, k, this.newValue(patchV, fieldPath));
        continue;
      }
      const originalV = original[k];
      if (isMap(originalV) && isMap(patchV)) {
        const { patchStrategy } = strategyOf(this.schema, fieldPath);
        setOwn(
          original,
          k,
          patchStrategy === REPLACE_DIRECTIVE ? this.newValue(patchV, fieldPath) : this.mergeMap(originalV, patchV, fieldPath),
        );
      } else if (Array.isArray(originalV) && Array.isArray(patchV)) {
        const { patchStrategy, mergeKey } = strategyOf(this.schema, fieldPath);
        setOwn(original, k, this.mergeSliceHandler(originalV, patchV, fieldPath, patchStrategy, mergeKey, isDeleteList));
      } else if (!isDeleteList) {
        setOwn(original, k, patchV);
      }
    }
    return original;
  }

  /**
   * A value the patch sets where the original has nothing to merge with: merged into an empty value, so that
   * null members are dropped and directives are carried out rather than stored.
   */
  private newValue(v: unknown, path: string[]): unknown {
    if (isMap(v)) return this.mergeMap({}, v, path);
    return Array.isArray(v) ? this.newList(v, path) : v;
  }

  /** newValue of a list: `$patch` elements of a merge list are dropped, map elements cleaned. */
  private newList(v: unknown[], path: string[]): unknown[] {
    const { patchStrategy, mergeKey } = strategyOf(this.schema, path);
    const items = patchStrategy === MERGE_DIRECTIVE && mergeKey !== '' ? specialElements([], v, mergeKey).plain : v;
    return items.map((el) => (isMap(el) ? this.mergeMap({}, el, path) : el));
  }

  /** handleDirectiveInMergeMap: `$patch: replace` takes the map as is, `$patch: delete` empties it. */
  private handleDirectiveInMergeMap(patch: JsonMap, path: string[]): JsonMap {
    const directive = patch[DIRECTIVE_MARKER];
    if (directive === REPLACE_DIRECTIVE) {
      delete patch[DIRECTIVE_MARKER];
      return this.mergeMap({}, patch, path);
    }
    if (directive === DELETE_DIRECTIVE) return {};
    throw errBadPatchType(directive, patch);
  }

  /** applyRetainKeysDirective: drops original keys missing from `$retainKeys`; patch keys must be listed. */
  private applyRetainKeysDirective(original: JsonMap, patch: JsonMap): void {
    if (!Object.hasOwn(patch, RETAIN_KEYS_DIRECTIVE)) return;
    const retainKeys = patch[RETAIN_KEYS_DIRECTIVE];
    delete patch[RETAIN_KEYS_DIRECTIVE];
    if (!Array.isArray(retainKeys)) throw new PatchError('bad-request', ERR_BAD_RETAIN_KEYS);
    const keep = new Set<unknown>(retainKeys);
    for (const [k, v] of Object.entries(patch)) {
      if (v === null || k.startsWith(DELETE_FROM_PRIMITIVE_LIST_PREFIX) || k.startsWith(SET_ELEMENT_ORDER_PREFIX)) continue;
      if (!keep.has(k)) throw new PatchError('bad-request', ERR_BAD_RETAIN_KEYS);
    }
    for (const k of Object.keys(original)) if (!keep.has(k)) delete original[k];
  }

  /**
   * mergePatchIntoOriginal: for each `$setElementOrder/<field>`, merges the field's list and orders it as
   * listed, server-only items placed by their order in the original. Consumes the directive and the list.
   */
  private mergePatchIntoOriginal(original: JsonMap, patch: JsonMap, path: string[]): void {
    for (const key of Object.keys(patch)) {
      if (!key.startsWith(SET_ELEMENT_ORDER_PREFIX)) continue;
      const setOrder = patch[key];
      delete patch[key];
      if (!Array.isArray(setOrder)) throw errBadArgType('[]interface {}', setOrder);
      const originalKey = extractKey(key, SET_ELEMENT_ORDER_PREFIX, ERR_BAD_SET_ELEMENT_ORDER);
      const foundOriginal = Object.hasOwn(original, originalKey);
      const foundPatch = Object.hasOwn(patch, originalKey);
      const originalList = foundOriginal ? original[originalKey] : [];
      const patchList = foundPatch ? patch[originalKey] : [];
      if (!Array.isArray(originalList)) throw errBadArgType('[]interface {}', originalList);
      if (!Array.isArray(patchList)) throw errBadArgType('[]interface {}', patchList);
      const fieldPath = [...path, originalKey];
      const { patchStrategy, mergeKey } = strategyOf(this.schema, fieldPath);
      validatePatchWithSetOrderList(patchList, setOrder, mergeKey);

      let merged: unknown[];
      if (foundOriginal && foundPatch) {
        merged = this.mergeSliceHandler(originalList, patchList, fieldPath, patchStrategy, mergeKey, false);
      } else if (foundPatch) {
        merged = this.newList(patchList, fieldPath);
      } else if (foundOriginal) {
        merged = originalList;
      } else {
        continue;
      }
      const { patchItems, serverOnly } =
        mergeKey === '' ? partitionPrimitives(merged, setOrder) : partitionMaps(merged, setOrder, mergeKey);
      const kind = sliceElementKind(originalList, patchList);
      setOwn(original, originalKey, normalizeElementOrder(patchItems, serverOnly, setOrder, originalList, mergeKey, kind));
      delete patch[originalKey];
    }
  }

  /** mergeSliceHandler: merge lists (and deletion lists) are merged, other lists replaced. */
  private mergeSliceHandler(
    original: unknown[],
    patch: unknown[],
    path: string[],
    patchStrategy: string,
    mergeKey: string,
    isDeleteList: boolean,
  ): unknown[] {
    if (patchStrategy === MERGE_DIRECTIVE || isDeleteList) return this.mergeSlice(original, patch, path, mergeKey, isDeleteList);
    return this.newList(patch, path);
  }

  /** mergeSlice: primitives are unioned (or deleted), maps merged by their merge key; then ordered. */
  private mergeSlice(original: unknown[], patch: unknown[], path: string[], mergeKey: string, isDeleteList: boolean): unknown[] {
    if (original.length === 0 && patch.length === 0) return original;
    const kind = sliceElementKind(original, patch);
    let merged: unknown[];
    let base = original;
    let patchItemsList = patch;
    if (kind !== 'map') {
      if (isDeleteList) return deleteFromSlice(original, patch);
      merged = deduplicateScalars([...original, ...patch]);
    } else {
      if (mergeKey === '') throw internal(`cannot merge lists without merge key for ${path.join('.')}`);
      const special = specialElements(original, patch, mergeKey);
      base = special.replace ? special.plain.map((v) => this.mergeMap({}, v as JsonMap, path)) : special.remaining;
      patchItemsList = special.replace ? [] : special.plain;
      merged = this.mergeSliceWithoutSpecialElements([...base], patchItemsList, mergeKey, path);
    }
    const { patchItems, serverOnly } =
      mergeKey === '' ? partitionPrimitives(merged, patchItemsList) : partitionMaps(merged, patchItemsList, mergeKey);
    return normalizeElementOrder(patchItems, serverOnly, patchItemsList, base, mergeKey, kind);
  }

  /** mergeSliceWithoutSpecialElements: patch elements merge into the original element with the same key, or are appended. */
  private mergeSliceWithoutSpecialElements(original: unknown[], patch: unknown[], mergeKey: string, path: string[]): unknown[] {
    const index = new MapIndex(original, mergeKey);
    for (const v of patch) {
      const m = v as JsonMap;
      if (!Object.hasOwn(m, mergeKey)) throw errNoMergeKey(m, mergeKey);
      const idx = index.find(m[mergeKey]);
      if (idx >= 0) {
        const merged = this.mergeMap(original[idx] as JsonMap, m, path);
        original[idx] = merged;
        // A merge that dropped the key (a null in the patch) moves that key's first element.
        if (!(Object.hasOwn(merged, mergeKey) && keyOf(merged[mergeKey]) === keyOf(m[mergeKey]))) index.rebuild();
      } else {
        original.push(this.mergeMap({}, m, path));
        index.note(original.length - 1);
      }
    }
    return original;
  }
}

/** Go's == on decoded JSON scalars. */
function scalarEqual(a: unknown, b: unknown): boolean {
  return a === b || (a === undefined && b === null) || (a === null && b === undefined);
}

/**
 * A value as a Map key with scalarEqual's equality (Map keys compare like ===, JSON has no NaN), so lookups
 * that Kubernetes does by scanning a list cost one hash lookup: a patch of many list elements against a list
 * of many stays linear instead of quadratic (20,000 containers took 44 s).
 */
function keyOf(v: unknown): unknown {
  return v === undefined ? null : v;
}

/**
 * findMapInSliceBasedOnKeyValue over one list, indexed once: the first map whose merge key has a value,
 * and the first element that is not a map (the scan throws there when it has not matched before).
 */
class MapIndex {
  private readonly first = new Map<unknown, number>();
  private firstNonMap = -1;

  constructor(
    private readonly list: unknown[],
    private readonly key: string,
  ) {
    this.rebuild();
  }

  rebuild(): void {
    this.first.clear();
    this.firstNonMap = -1;
    for (let i = 0; i < this.list.length; i++) this.note(i);
  }

  /** Takes in the element at `i`, the last one or one past those indexed. */
  note(i: number): void {
    const item = this.list[i];
    if (!isMap(item)) {
      if (this.firstNonMap < 0) this.firstNonMap = i;
      return;
    }
    if (!Object.hasOwn(item, this.key)) return;
    const k = keyOf(item[this.key]);
    if (!this.first.has(k)) this.first.set(k, i);
  }

  /** The index of the map whose merge key equals `value`, or -1. */
  find(value: unknown): number {
    const i = this.first.get(keyOf(value));
    if (i !== undefined && (this.firstNonMap < 0 || i < this.firstNonMap)) return i;
    if (this.firstNonMap >= 0) throw internal(`value for key ${this.firstNonMap} is not a map.`);
    return -1;
  }
}

/** extractKey: the field name after `<prefix>/`. */
function extractKey(s: string, prefix: string, formatError: string): string {
  const slash = s.indexOf('/');
  if (slash < 0 || s.slice(0, slash) !== prefix) throw new PatchError('bad-request', formatError);
  return s.slice(slash + 1);
}

/**
 * mergeSliceWithSpecialElements: the `$patch` elements of a list of maps — `delete` removes the original
 * elements with that merge key, `replace` asks for the other (plain) patch elements to be the whole list.
 */
function specialElements(
  original: unknown[],
  patch: unknown[],
  mergeKey: string,
): { remaining: unknown[]; plain: unknown[]; replace: boolean } {
  const plain: unknown[] = [];
  let replace = false;
  const deleted = new Set<unknown>();
  for (const v of patch) {
    if (!isMap(v) || !Object.hasOwn(v, DIRECTIVE_MARKER)) {
      plain.push(v);
      continue;
    }
    const directive = v[DIRECTIVE_MARKER];
    if (directive === DELETE_DIRECTIVE) {
      if (!Object.hasOwn(v, mergeKey)) throw errNoMergeKey(v, mergeKey);
      deleted.add(keyOf(v[mergeKey]));
    } else if (directive === REPLACE_DIRECTIVE) {
      replace = true;
    } else if (directive === MERGE_DIRECTIVE) {
      throw internal('merging lists cannot yet be specified in the patch');
    } else {
      throw errBadPatchType(directive, v);
    }
  }
  const remaining = deleted.size
    ? original.filter((item) => !(isMap(item) && Object.hasOwn(item, mergeKey) && deleted.has(keyOf(item[mergeKey]))))
    : original;
  return { remaining, plain, replace };
}

type ElementKind = 'map' | 'scalar';

/** sliceElementType: all elements of the lists must have one type, and not be lists. */
function sliceElementKind(...lists: unknown[][]): ElementKind {
  let prev: string | undefined;
  for (const list of lists) {
    for (const v of list) {
      const t = goType(v);
      if (prev === undefined) {
        if (Array.isArray(v)) throw new PatchError('invalid', ERR_NO_LIST_OF_LISTS);
        prev = t;
      } else if (prev !== t) {
        throw internal(`list element types are not identical: ${goV(lists)}`);
      }
    }
  }
  if (prev === undefined) throw internal('no elements in any of the given slices');
  return prev === 'map[string]interface {}' ? 'map' : 'scalar';
}

/**
 * deduplicateScalars, keeping first occurrences. Kubernetes' quadratic removal moves elements around, but its
 * result is always ordered afterwards by position in the patch and the original, which every element has.
 */
function deduplicateScalars(s: unknown[]): unknown[] {
  return [...new Set(s.map(keyOf))];
}

/** deleteFromSlice: the primitive list without the listed values. */
function deleteFromSlice(current: unknown[], toDelete: unknown[]): unknown[] {
  const remove = new Set(toDelete);
  return current.filter((v) => !remove.has(v));
}

function partitionPrimitives(list: unknown[], partitionBy: unknown[]): { patchItems: unknown[]; serverOnly: unknown[] } {
  const inPatch = new Set(partitionBy);
  return { patchItems: list.filter((v) => inPatch.has(v)), serverOnly: list.filter((v) => !inPatch.has(v)) };
}

function partitionMaps(list: unknown[], partitionBy: unknown[], mergeKey: string): { patchItems: unknown[]; serverOnly: unknown[] } {
  const patchItems: unknown[] = [];
  const serverOnly: unknown[] = [];
  const index = new MapIndex(partitionBy, mergeKey);
  for (const v of list) {
    if (!isMap(v)) throw errBadArgType('map[string]interface {}', v);
    if (!Object.hasOwn(v, mergeKey)) throw errNoMergeKey(v, mergeKey);
    (index.find(v[mergeKey]) >= 0 ? patchItems : serverOnly).push(v);
  }
  return { patchItems, serverOnly };
}

/** index: the position of an item in `list` (the first with its merge key value, for maps), or -1; indexed once. */
function positionsIn(list: unknown[], mergeKey: string, kind: ElementKind): (item: unknown) => number {
  const keyValue = (x: unknown): unknown => keyOf(kind === 'map' ? (isMap(x) ? getOwn(x, mergeKey) : undefined) : x);
  const first = new Map<unknown, number>();
  list.forEach((v, i) => {
    const k = keyValue(v);
    if (!first.has(k)) first.set(k, i);
  });
  return (item) => first.get(keyValue(item)) ?? -1;
}

/** mergeKeyValueEqual. */
function mergeKeyValueEqual(left: unknown, right: unknown, mergeKey: string): boolean {
  if (mergeKey === '') return scalarEqual(left, right);
  if (!isMap(left)) throw errBadArgType('map[string]interface {}', left);
  if (!isMap(right)) throw errBadArgType('map[string]interface {}', right);
  if (!Object.hasOwn(left, mergeKey)) throw errNoMergeKey(left, mergeKey);
  if (!Object.hasOwn(right, mergeKey)) throw errNoMergeKey(right, mergeKey);
  return scalarEqual(left[mergeKey], right[mergeKey]);
}

/** extractToDeleteItems: splits a list of maps into kept items and `$patch: delete` items. */
function extractToDeleteItems(list: unknown[]): { nonDelete: unknown[]; toDelete: unknown[] } {
  const nonDelete: unknown[] = [];
  const toDelete: unknown[] = [];
  for (const v of list) {
    if (!isMap(v)) throw errBadArgType('map[string]interface {}', v);
    (getOwn(v, DIRECTIVE_MARKER) === DELETE_DIRECTIVE ? toDelete : nonDelete).push(v);
  }
  return { nonDelete, toDelete };
}

/** validatePatchWithSetOrderList: the patch list's items must appear in the `$setElementOrder` list, in that order. */
function validatePatchWithSetOrderList(patchList: unknown[], setOrder: unknown[], mergeKey: string): void {
  if (setOrder.length === 0 || patchList.length === 0) return;
  const nonDelete = mergeKey === '' ? patchList : extractToDeleteItems(patchList).nonDelete;
  let patchIndex = 0;
  let setOrderIndex = 0;
  while (patchIndex < nonDelete.length && setOrderIndex < setOrder.length) {
    const item = nonDelete[patchIndex];
    if (isMap(item) && Object.hasOwn(item, DIRECTIVE_MARKER)) {
      patchIndex++;
      continue;
    }
    if (mergeKeyValueEqual(item, setOrder[setOrderIndex], mergeKey)) patchIndex++;
    setOrderIndex++;
  }
  if (patchIndex < nonDelete.length && setOrderIndex >= setOrder.length) {
    throw internal(`The order in patch list:\n${goV(patchList)}\n doesn't match ${SET_ELEMENT_ORDER_PREFIX} list:\n${goV(setOrder)}\n`);
  }
}

/** normalizeSliceOrder: `toSort` ordered by `order` (stable; `$patch: delete` items last). */
function normalizeSliceOrder(toSort: unknown[], order: unknown[], mergeKey: string, kind: ElementKind): unknown[] {
  let items = toSort;
  let toDelete: unknown[] = [];
  if (kind === 'map') {
    for (const v of [...toSort, ...order]) {
      if (!isMap(v)) throw errBadArgType('map[string]interface {}', v);
      if (!Object.hasOwn(v, mergeKey)) throw errNoMergeKey(v, mergeKey);
    }
    ({ nonDelete: items, toDelete } = extractToDeleteItems(toSort));
  }
  const indexIn = positionsIn(order, mergeKey, kind);
  const sorted = [...items].sort((a, b) => {
    const ia = indexIn(a);
    const ib = indexIn(b);
    return ia >= 0 && ib >= 0 ? ia - ib : 0;
  });
  return [...sorted, ...toDelete];
}

/**
 * mergeSortedSlice: interleaves server-only items (`left`) into the patch items (`right`), keeping both
 * relative orders; a server-only item goes first when the original had it before the patch item.
 */
function mergeSortedSlice(left: unknown[], right: unknown[], serverOrder: unknown[], mergeKey: string, kind: ElementKind): unknown[] {
  const out: unknown[] = [];
  const indexIn = positionsIn(serverOrder, mergeKey, kind);
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]);
    else if (j >= right.length) out.push(left[i++]);
    else {
      const li = indexIn(left[i]);
      const ri = indexIn(right[j]);
      out.push(li >= 0 && ri >= 0 && li < ri ? left[i++] : right[j++]);
    }
  }
  return out;
}

/** normalizeElementOrder: patch items in patch order, server-only items in original order, merged. */
function normalizeElementOrder(
  patchItems: unknown[],
  serverOnly: unknown[],
  patchOrder: unknown[],
  serverOrder: unknown[],
  mergeKey: string,
  kind: ElementKind,
): unknown[] {
  const patchSorted = normalizeSliceOrder(patchItems, patchOrder, mergeKey, kind);
  const serverSorted = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind);
  return mergeSortedSlice(serverSorted, patchSorted, serverOrder, mergeKey, kind);
}

/**
 * Applies a strategic merge patch (already parsed from JSON) to `original` and returns the result; neither
 * input is modified. Maps merge recursively and `null` deletes; lists are replaced unless the schema gives
 * them patchStrategy `merge` (maps merged by patchMergeKey, primitives unioned). Directives: `$patch`
 * (replace / delete), `$retainKeys`, `$setElementOrder/<field>`, `$deleteFromPrimitiveList/<field>`.
 * Throws PatchError: bad-request for a malformed patch, invalid for lists of lists, internal where
 * Kubernetes answers 500 (unknown `$patch` values, missing merge keys, ...).
 */
export function applyStrategicMergePatch(original: unknown, patch: unknown, schema: PatchSchema): JsonMap {
  if (!isMap(patch)) throw new PatchError('bad-request', ERR_BAD_JSON_DOC);
  if (original !== null && original !== undefined && !isMap(original)) throw new PatchError('bad-request', ERR_BAD_JSON_DOC);
  const copy = isMap(original) ? structuredClone(original) : {};
  return new Merger(schema).mergeMap(copy, structuredClone(patch), []);
}
