/**
 * Objects held by the cache are shared by every reader, so they are frozen: a reader that tried to
 * change one would throw instead of corrupting what others are served. Their serialized forms are
 * memoized per object, so an event is encoded once however many watchers receive it.
 */
import type { ApiObject, WatchEventType } from '../../api/object.js';

/** Freezes a decoded JSON value and everything in it; returns it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    // for-in over own enumerable keys of JSON values: no array of 100,000 values for a large map,
    // and no call per string or number.
    const o = value as Record<string, unknown>;
    for (const k in o) {
      const v = o[k];
      if (typeof v === 'object' && v !== null) deepFreeze(v);
    }
  }
  return value;
}

/** A frozen copy of a cached object with another resourceVersion (sharing everything else). */
export function withRevision(obj: ApiObject, revision: number): ApiObject {
  return Object.freeze({ ...obj, metadata: Object.freeze({ ...obj.metadata, resourceVersion: String(revision) }) });
}

type Frames = Partial<Record<WatchEventType, Buffer>>;

const frames = new WeakMap<ApiObject, Frames>();

/** Encodes watch events in another media type than JSON (the protobuf codec is one). */
export interface FrameEncoder {
  watchFrame(type: WatchEventType, obj: ApiObject): Buffer;
}

const encodedFrames = new WeakMap<ApiObject, Map<FrameEncoder, Frames>>();

/**
 * The watch stream frame of a cached (frozen) object — the line `{"type":…,"object":…}\n`, or the
 * encoder's frame — encoded on first use and shared by every later caller while the object lives:
 * once per event and media type, however many watchers.
 */
export function watchFrame(type: WatchEventType, obj: ApiObject, encoder?: FrameEncoder): Buffer {
  if (encoder) {
    let byEncoder = encodedFrames.get(obj);
    if (!byEncoder) encodedFrames.set(obj, (byEncoder = new Map()));
    let encoded = byEncoder.get(encoder);
    if (!encoded) byEncoder.set(encoder, (encoded = {}));
    return (encoded[type] ??= encoder.watchFrame(type, obj));
  }
  let memo = frames.get(obj);
  if (!memo) frames.set(obj, (memo = {}));
  return (memo[type] ??= Buffer.from(`{"type":"${type}","object":${JSON.stringify(obj)}}\n`));
}
