/**
 * The event loop's share for bulk answers: the bytes that every streamed list together may write
 * in one turn of the loop. Each request of any priority level shares the one loop, and a chunk
 * written costs its encryption and the socket write (on loopback the kernel delivers it in the
 * writer's time): twenty lists of 5,000 objects streaming at once wrote 20 chunks a turn, and a
 * GET of one object arriving in that turn waited for all of them. With the budget, a turn writes at
 * most TURN_BYTES of bulk answers whatever their number; the rest wait for the next turn, first
 * come first served (a stream that wrote queues behind the others), while each turn's other
 * requests run in full. A quiet loop turns quickly, so a lone list still streams at the socket's pace.
 *
 * A list streaming alone writes bigger chunks (ALONE_CHUNK_BYTES): each chunk is a socket write and a
 * wait for its drain, so 16 KiB chunks cost a 10,000-object list (12 MB) ~780 writes and as many
 * turns, and its client as many reads; at 128 KiB a chunk still holds the loop for well under a
 * millisecond. Once another list streams beside it, both are back to SHARED_CHUNK_BYTES at their next chunk.
 */

/** Bulk bytes per turn of the event loop, all streams together. */
export const TURN_BYTES = 32 * 1024;

/** A bulk answer's chunk while other bulk answers stream in this process, and while it streams alone. */
export const SHARED_CHUNK_BYTES = 16 * 1024;
export const ALONE_CHUNK_BYTES = 128 * 1024;

let streams = 0;

/** Counts a bulk answer as streaming until the returned function is called (once is enough; more are no-ops). */
export function bulkStreamStarted(): () => void {
  streams++;
  let open = true;
  return () => {
    if (open) streams--;
    open = false;
  };
}

/** The bytes a streaming bulk answer writes at a time now: more while it is the only one. */
export function bulkChunkBytes(): number {
  return streams <= 1 ? ALONE_CHUNK_BYTES : SHARED_CHUNK_BYTES;
}

let spent = 0;
let turnScheduled = false;
const waiting: { bytes: number; go: () => void }[] = [];

function nextTurn(): void {
  spent = 0;
  turnScheduled = false;
  while (waiting.length > 0 && spent < TURN_BYTES) {
    const w = waiting.shift()!;
    spent += w.bytes;
    w.go();
  }
  if (waiting.length > 0 || spent > 0) schedule();
}

function schedule(): void {
  if (turnScheduled) return;
  turnScheduled = true;
  setImmediate(nextTurn);
}

/**
 * Resolves when `bytes` of a bulk answer may be written: in this turn while its budget lasts (a
 * resolved promise), else in a later turn. Write them right after.
 */
export function bulkTurn(bytes: number): Promise<void> {
  schedule();
  if (waiting.length === 0 && spent < TURN_BYTES) {
    spent += bytes;
    return Promise.resolve();
  }
  return new Promise((go) => waiting.push({ bytes, go }));
}
