/**
 * client-go's Reflector: keeps a store in step with one resource. It lists (in pages), hands the whole
 * list to the store, then watches from the list's resourceVersion with bookmarks, applying each event
 * and remembering the newest resourceVersion (bookmarks included). A watch the server ends is opened
 * again from there; a watch that cannot connect is retried from there with backoff; a 410 (the
 * resourceVersion was compacted away) means a relist, and the store works out what changed.
 */
import type { ApiObject, KindObject } from '../../apiserver/api/object.js';
import { ApiError } from '../../apiserver/api/status.js';
import type { Logger } from '../../apiserver/component-base/logs/logger.js';
import type { ResourceClient } from '../client/api-client.js';
import { DEFAULT_PAGE_SIZE } from '../client/api-client.js';
import { isExpired } from '../client/api-errors.js';
import { Backoff, sleep } from './backoff.js';
import { messageOf } from '../../apiserver/api/thrown.js';

/** Where a reflector delivers what it sees. */
export interface ReflectorStore<T extends KindObject = ApiObject> {
  /** The complete state after a (re)list. */
  replace(items: T[]): void;
  add(obj: T): void;
  update(obj: T): void;
  delete(obj: T): void;
}

export interface ReflectorOptions {
  /** Page size of lists; 0 lists in one request. */
  pageSize?: number;
  /** Watches ask the server to end them after a random time between this and twice it. */
  minWatchTimeoutSeconds?: number;
  /** Retry delays after failures: from initialMs, doubling up to maxMs. */
  backoff?: { initialMs: number; maxMs: number };
  logger?: Logger;
  /** A name for logs, e.g. the resource. */
  name?: string;
}

const DEFAULT_MIN_WATCH_TIMEOUT_SECONDS = 300;
const DEFAULT_BACKOFF = { initialMs: 800, maxMs: 30_000 };

export class Reflector<T extends KindObject = ApiObject> {
  /** The resourceVersion of the newest list, event or bookmark seen. */
  lastSyncResourceVersion = '';
  private needList = true;
  private readonly backoff: Backoff;

  constructor(
    private readonly resource: ResourceClient<T>,
    private readonly store: ReflectorStore<T>,
    private readonly opts: ReflectorOptions = {},
  ) {
    const b = opts.backoff ?? DEFAULT_BACKOFF;
    this.backoff = new Backoff(b.initialMs, b.maxMs);
  }

  /** Lists and watches until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        if (this.needList) await this.list();
        await this.watch(signal);
      } catch (err) {
        if (signal.aborted) return;
        if (isExpired(err)) {
          this.opts.logger?.info('resourceVersion expired, relisting', {
            resource: this.opts.name,
            resourceVersion: this.lastSyncResourceVersion,
          });
          this.needList = true;
          continue;
        }
        const delay = this.backoff.next();
        this.opts.logger?.warn('list/watch failed, retrying', {
          resource: this.opts.name,
          error: messageOf(err),
          retryInMs: Math.round(delay),
        });
        await sleep(delay, signal);
      }
    }
  }

  /** A consistent list, paged; an expired continue token falls back to one unpaged list. */
  private async list(): Promise<void> {
    const pageSize = this.opts.pageSize ?? DEFAULT_PAGE_SIZE;
    let list;
    try {
      list = pageSize > 0 ? await this.resource.listAll({}, pageSize) : await this.resource.list();
    } catch (err) {
      if (!isExpired(err) || pageSize === 0) throw err;
      list = await this.resource.list();
    }
    const rv = list.metadata.resourceVersion ?? '';
    this.store.replace(list.items);
    this.lastSyncResourceVersion = rv;
    this.needList = false;
  }

  /** One watch, from lastSyncResourceVersion, until the server ends it. */
  private async watch(signal: AbortSignal): Promise<void> {
    const min = this.opts.minWatchTimeoutSeconds ?? DEFAULT_MIN_WATCH_TIMEOUT_SECONDS;
    const timeoutSeconds = Math.floor(min * (1 + Math.random()));
    const events = this.resource.watch(
      { resourceVersion: this.lastSyncResourceVersion, allowWatchBookmarks: true, timeoutSeconds },
      signal,
    );
    for await (const ev of events) {
      this.backoff.reset();
      if (ev.type === 'ERROR') throw new ApiError(ev.object);
      const { type, object: obj } = ev;
      const rv = obj.metadata?.resourceVersion;
      switch (type) {
        case 'ADDED':
          this.store.add(obj);
          break;
        case 'MODIFIED':
          this.store.update(obj);
          break;
        case 'DELETED':
          this.store.delete(obj);
          break;
        case 'BOOKMARK':
          break;
        default:
          this.opts.logger?.warn('unknown watch event type', { resource: this.opts.name, type: String(type) });
          continue;
      }
      if (rv) this.lastSyncResourceVersion = rv;
    }
  }
}
