/**
 * Shared informers: one per resource for the whole process, so controllers watching the same resource
 * share one list/watch and one cache (client-go's SharedInformerFactory).
 */
import type { Logger } from '../../apiserver/component-base/logs/logger.js';
import type { ApiObject, KindObject } from '../../apiserver/api/object.js';
import type { ApiClient, GroupVersionResource, TypedResource } from '../client/api-client.js';
import { gvrKey } from '../client/discovery.js';
import { Informer, type InformerOptions } from './informer.js';

/** What the factory does with every informer, whatever its kind. */
type RunningInformer = Pick<Informer, 'run' | 'stop' | 'waitForSync'>;

export class InformerFactory {
  private readonly informers = new Map<string, RunningInformer>();
  private started = false;

  constructor(
    private readonly client: ApiClient,
    private readonly defaults: Omit<InformerOptions, 'name' | 'logger' | 'indexers'> & { logger?: Logger } = {},
  ) {}

  /** The informer of a resource (all namespaces), created on first use; running once start() was called. */
  forResource<T extends KindObject = ApiObject>(gvr: TypedResource<T>): Informer<T> {
    const key = gvrKey(gvr);
    const found = this.informers.get(key);
    // The key names the resource, and one resource's objects are one kind: what it holds is an Informer<T>.
    if (found) return found as Informer<T>;
    const informer = new Informer<T>(this.client.resource(gvr), { ...this.defaults, name: key });
    this.informers.set(key, informer);
    if (this.started) informer.run();
    return informer;
  }

  /** Runs every informer, and those created later as they are. */
  start(): void {
    this.started = true;
    for (const informer of this.informers.values()) informer.run();
  }

  /** Stops one resource's informer and forgets it. */
  async remove(gvr: GroupVersionResource): Promise<void> {
    const key = gvrKey(gvr);
    const informer = this.informers.get(key);
    this.informers.delete(key);
    await informer?.stop();
  }

  async stop(): Promise<void> {
    await Promise.all([...this.informers.values()].map((i) => i.stop()));
  }

  /** Resolves true once every informer has synced. */
  async waitForCacheSync(signal?: AbortSignal): Promise<boolean> {
    const results = await Promise.all([...this.informers.values()].map((i) => i.waitForSync(signal)));
    return results.every(Boolean);
  }
}
