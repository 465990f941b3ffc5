/** A stored change as one watcher sees it through its selection. */
import type { ApiObject, WatchEvent, WatchEventType } from '../../api/object.js';
import { type FrameEncoder, initialFrame, watchFrame, withRevision } from './cached-object.js';

/** One change of one key, decoded. */
export interface Change {
  /** The object after a put; for a delete, the last object with the deletion's resourceVersion. */
  object: ApiObject;
  /** The object before a put (absent for a creation); unused for a delete. */
  prev?: ApiObject;
  deleted: boolean;
}

/** How a change shows in a watch: which object, as which event type; undefined when not at all. */
export interface Visible {
  type: WatchEventType;
  /** 'object' = change.object; 'prev' = change.prev with the change's resourceVersion. */
  of: 'object' | 'prev';
}

/**
 * Kubernetes' rule for filtered watches: a deletion shows when the last object matched; a put shows
 * as MODIFIED when both versions match, ADDED when only the new one does (it entered the selection),
 * and DELETED — with the old object — when only the old one does (it left the selection).
 */
export function visibleAs(change: Change, matches: (obj: ApiObject) => boolean): Visible | undefined {
  if (change.deleted) return matches(change.object) ? { type: 'DELETED', of: 'object' } : undefined;
  const prevMatch = change.prev !== undefined && matches(change.prev);
  if (matches(change.object)) return { type: prevMatch ? 'MODIFIED' : 'ADDED', of: 'object' };
  return prevMatch ? { type: 'DELETED', of: 'prev' } : undefined;
}

/** A change as the cache keeps it: decoded once, frozen, shared by every watcher. */
export interface CachedChange extends Change {
  key: string;
  revision: number;
  /** Date.now() when the cache received it. */
  receivedAt: number;
  /** The stored object's size: about what its event's frame costs, without encoding it. */
  bytes: number;
  /** The events watchers were sent for it, made when first needed and shared. */
  shown?: Partial<Record<WatchEventType, SharedEvent>>;
}

/** A watch event shared by every watcher that gets it, with its encoding made once. */
export interface SharedEvent {
  event: WatchEvent;
  /** The event as a JSON stream line, or as the encoder's frame. */
  frame(encoder?: FrameEncoder): Buffer;
  /** About the frame's size (the stored object's), 0 when not known. */
  bytes: number;
}

/** A shared event for an object of the cache (frozen). */
export function sharedEvent(type: WatchEventType, object: ApiObject, bytes = 0): SharedEvent {
  return { event: { type, object }, frame: (encoder) => watchFrame(type, object, encoder), bytes };
}

/** The event watchers get for a visible change: one per change and type, shared. */
export function shownEvent(change: CachedChange, visible: Visible): SharedEvent {
  const shown = (change.shown ??= {});
  return (shown[visible.type] ??= sharedEvent(
    visible.type,
    visible.of === 'object' ? change.object : withRevision(change.prev!, change.revision),
    change.bytes,
  ));
}

/** An initial event (the object as ADDED when a watch starts from the current state): its frame is made when sent, not kept. */
export function initialEvent(object: ApiObject): SharedEvent {
  return { event: { type: 'ADDED', object }, frame: (encoder) => initialFrame(object, encoder), bytes: 0 };
}
