// RFC 7386 JSON Merge Patch on plain JSON values, as Kubernetes applies it (evanphx/json-patch MergePatch).

type JsonObject = Record<string, unknown>;

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Sets an own property, also for the key `__proto__`. */
function setOwn(obj: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * A patch value taken as is: null members of objects are dropped at every depth, also inside arrays
 * (null array elements stay), as the Go library does.
 */
function pruneNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === null ? null : pruneNulls(v)));
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) setOwn(out, k, pruneNulls(v));
  return out;
}

/** Merges `patch` (an object) into a copy of `target` (an object). */
function mergeObjects(target: JsonObject, patch: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(target)) setOwn(out, k, v);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else if (isObject(v) && Object.hasOwn(out, k) && isObject(out[k])) setOwn(out, k, mergeObjects(out[k] as JsonObject, v));
    else setOwn(out, k, pruneNulls(v));
  }
  return out;
}

/**
 * Applies a JSON merge patch: objects merge recursively, a null member deletes the key, anything else
 * (arrays included) replaces. A patch that is not an object replaces the whole target. Returns a new value;
 * the inputs are not modified.
 */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return structuredClone(patch);
  return structuredClone(mergeObjects(isObject(target) ? target : {}, patch));
}
