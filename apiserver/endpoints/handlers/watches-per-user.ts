/**
 * --max-watches-per-user: each open watch costs the server memory (a connection, its buffers, a
 * cache watcher), so one user may hold at most `max` at once in this process; more are answered 429
 * with Retry-After, as an overloaded server answers. Kubelets and controllers are each their own
 * user and hold tens to hundreds; system:masters is never limited (as API Priority and Fairness
 * exempts it). Counted per process: with --workers N a user may hold up to N × max on one server.
 */
import type { UserInfo } from '../../api/user-info.js';
import * as status from '../../api/status.js';

const EXEMPT_GROUP = 'system:masters';
export const RETRY_AFTER_SECONDS = 1;

export class WatchesPerUser {
  private readonly open = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** Counts one more watch of the user; the returned function releases it (once). Throws 429 past the limit. */
  acquire(user: UserInfo): () => void {
    if (this.max <= 0 || user.groups?.includes(EXEMPT_GROUP)) return () => {};
    const name = user.name;
    const n = this.open.get(name) ?? 0;
    if (n >= this.max) {
      throw status.tooManyRequests(
        `too many watches open for user "${name}" (at most ${this.max}); close some or retry later`,
        RETRY_AFTER_SECONDS,
      );
    }
    this.open.set(name, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(name) ?? 1) - 1;
      if (left > 0) this.open.set(name, left);
      else this.open.delete(name);
    };
  }

  /** Watches the user holds open. */
  count(user: string): number {
    return this.open.get(user) ?? 0;
  }
}
