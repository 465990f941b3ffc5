/**
 * client-go's SharedIndexInformer: a reflector feeding an indexed local cache, and event handlers told
 * about every change in order. After a relist only the difference reaches the handlers: objects that
 * appeared are added, objects whose resourceVersion changed are updated, objects that vanished are
 * deleted (with their last known state), and a name now held by a new object (another uid) is a delete
 * and an add. Every resync period each cached object is delivered again as
 * an update of itself, so controllers that missed something get another chance.
 */
import type { ApiObject, KindObject } from '../../apiserver/api/object.js';
import type { Logger } from '../../apiserver/component-base/logs/logger.js';
import type { ResourceClient } from '../client/api-client.js';
import { Indexer, objectKey, type IndexFunc } from './indexer.js';
import { Reflector, type ReflectorOptions, type ReflectorStore } from './reflector.js';
import { sleep } from './backoff.js';
import { messageOf } from '../../apiserver/api/thrown.js';

export interface EventHandler<T extends KindObject = ApiObject> {
  onAdd?(obj: T): void;
  onUpdate?(oldObj: T, newObj: T): void;
  onDelete?(obj: T): void;
}

export interface InformerOptions<T extends KindObject = ApiObject> extends ReflectorOptions {
  /** 0 = never resync. */
  resyncPeriodMs?: number;
  indexers?: Record<string, IndexFunc<T>>;
}

const SYNC_POLL_MS = 20;

/** One change as a handler is told of it. */
type Notification<T> = { kind: 'onAdd'; obj: T } | { kind: 'onUpdate'; oldObj: T; newObj: T } | { kind: 'onDelete'; obj: T };

function deliver<T extends KindObject>(handler: EventHandler<T>, n: Notification<T>): void {
  if (n.kind === 'onAdd') handler.onAdd?.(n.obj);
  else if (n.kind === 'onUpdate') handler.onUpdate?.(n.oldObj, n.newObj);
  else handler.onDelete?.(n.obj);
}

/** The informer of one resource, whose objects are `T`. */
export class Informer<T extends KindObject = ApiObject> implements ReflectorStore<T> {
  readonly indexer: Indexer<T>;
  private readonly handlers: EventHandler<T>[] = [];
  private readonly reflector: Reflector<T>;
  private synced = false;
  private abort?: AbortController;
  private running?: Promise<void>;
  private resyncTimer?: NodeJS.Timeout;
  private readonly logger?: Logger;

  constructor(
    readonly resource: ResourceClient<T>,
    private readonly opts: InformerOptions<T> = {},
  ) {
    this.indexer = new Indexer<T>(opts.indexers);
    this.reflector = new Reflector<T>(resource, this, opts);
    this.logger = opts.logger;
  }

  /** Registers handlers; objects already cached are delivered to them as adds. */
  addEventHandler(handler: EventHandler<T>): void {
    this.handlers.push(handler);
    for (const obj of this.indexer.list()) this.call(handler, { kind: 'onAdd', obj });
  }

  /** True once the first list has been delivered. */
  hasSynced(): boolean {
    return this.synced;
  }

  /** The resourceVersion the cache is at. */
  get lastSyncResourceVersion(): string {
    return this.reflector.lastSyncResourceVersion;
  }

  /** Starts listing and watching (once). */
  run(): void {
    if (this.running) return;
    this.abort = new AbortController();
    this.running = this.reflector.run(this.abort.signal);
    const period = this.opts.resyncPeriodMs ?? 0;
    if (period > 0) {
      this.resyncTimer = setInterval(() => this.resync(), period);
      this.resyncTimer.unref();
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.resyncTimer);
    this.abort?.abort();
    await this.running;
  }

  /** Resolves true once synced, false if `signal` aborts first. */
  async waitForSync(signal?: AbortSignal): Promise<boolean> {
    while (!this.synced) {
      if (signal?.aborted) return false;
      await sleep(SYNC_POLL_MS, signal);
    }
    return true;
  }

  private call(handler: EventHandler<T>, n: Notification<T>): void {
    try {
      deliver(handler, n);
    } catch (err) {
      this.logger?.error('event handler failed', { resource: this.opts.name, handler: n.kind, error: messageOf(err) });
    }
  }

  private dispatch(n: Notification<T>): void {
    for (const h of this.handlers) this.call(h, n);
  }

  private resync(): void {
    for (const obj of this.indexer.list()) this.dispatch({ kind: 'onUpdate', oldObj: obj, newObj: obj });
  }

  replace(items: T[]): void {
    const seen = new Set<string>();
    for (const obj of items) {
      seen.add(objectKey(obj));
      const old = this.indexer.set(obj);
      if (old && old.metadata.uid !== obj.metadata.uid) {
        this.dispatch({ kind: 'onDelete', obj: old });
        this.dispatch({ kind: 'onAdd', obj });
      } else if (!old) this.dispatch({ kind: 'onAdd', obj });
      else if (old.metadata.resourceVersion !== obj.metadata.resourceVersion) this.dispatch({ kind: 'onUpdate', oldObj: old, newObj: obj });
    }
    for (const key of this.indexer.keys()) {
      if (seen.has(key)) continue;
      const gone = this.indexer.delete(key)!;
      this.dispatch({ kind: 'onDelete', obj: gone });
    }
    this.synced = true;
  }

  add(obj: T): void {
    const old = this.indexer.set(obj);
    if (old) this.dispatch({ kind: 'onUpdate', oldObj: old, newObj: obj });
    else this.dispatch({ kind: 'onAdd', obj });
  }

  update(obj: T): void {
    this.add(obj);
  }

  delete(obj: T): void {
    this.indexer.delete(objectKey(obj));
    this.dispatch({ kind: 'onDelete', obj });
  }
}
