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

/** A cached object's JSON encodings: the object alone, and its watch frames by event type. */
interface Encoded {
  json?: Buffer;
  frames: Frames;
}

const encoded = new WeakMap<ApiObject, Encoded>();

function encodedOf(obj: ApiObject): Encoded {
  let e = encoded.get(obj);
  if (!e) encoded.set(obj, (e = { frames: {} }));
  return e;
}

const FRAME_END = Buffer.from('}\n');

/**
 * The JSON of an object. A cached (frozen) one is encoded on first use and shared by every later
 * caller while it lives, so a LIST of thousands of cached objects concatenates bytes instead of
 * encoding each object again: encoding is most of what a big LIST costs the event loop every
 * request shares. An object with a watch frame shares the frame's bytes. Any other object is
 * encoded each time.
 */
export function objectJson(obj: ApiObject): Buffer {
  if (!Object.isFrozen(obj)) return Buffer.from(JSON.stringify(obj));
  const e = encodedOf(obj);
  return (e.json ??= Buffer.from(JSON.stringify(obj)));
}

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
  const e = encodedOf(obj);
  const have = e.frames[type];
  if (have) return have;
  const head = Buffer.from(`{"type":"${type}","object":`);
  let frame: Buffer;
  if (e.json) frame = Buffer.concat([head, e.json, FRAME_END]);
  else {
    // One encoding for both: the object's JSON is a view of its first frame.
    frame = Buffer.from(`{"type":"${type}","object":${JSON.stringify(obj)}}\n`);
    e.json = frame.subarray(head.length, frame.length - FRAME_END.length);
  }
  e.frames[type] = frame;
  return frame;
}

const ADDED_HEAD = Buffer.from('{"type":"ADDED","object":');

/** Initial ADDED frames made for a send, held weakly: shared while some response still holds one, then let go. */
const initialFrames = new WeakMap<ApiObject, Map<FrameEncoder | undefined, WeakRef<Buffer>>>();

/**
 * The ADDED frame of an initial event (a watch starting from the current state): a frame the object
 * already has, else one made from its shared JSON (the one lists use) and held only weakly — many
 * watches starting at once share it while their responses hold it, but a watch-list of every object
 * leaves no second encoding of each behind.
 */
export function initialFrame(obj: ApiObject, encoder?: FrameEncoder): Buffer {
  const kept = encoder ? encodedFrames.get(obj)?.get(encoder)?.ADDED : encoded.get(obj)?.frames.ADDED;
  if (kept) return kept;
  let byEncoder = initialFrames.get(obj);
  const held = byEncoder?.get(encoder)?.deref();
  if (held) return held;
  const frame = encoder ? encoder.watchFrame('ADDED', obj) : Buffer.concat([ADDED_HEAD, objectJson(obj), FRAME_END]);
  if (!Object.isFrozen(obj)) return frame;
  if (!byEncoder) initialFrames.set(obj, (byEncoder = new Map()));
  byEncoder.set(encoder, new WeakRef(frame));
  return frame;
}
