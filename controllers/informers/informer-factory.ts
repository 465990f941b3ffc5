/**
 * Shared informers: one per resource for the whole process, so controllers watching the same resource
 * share one list/watch and one cache (client-go's SharedInformerFactory).
 */
import type { Logger } from '../../apiserver/component-base/logs/logger.js';
import type { ApiClient, GroupVersionResource } from '../client/api-client.js';
import { gvrKey } from '../client/discovery.js';
import { Informer, type InformerOptions } from './informer.js';

export class InformerFactory {
  private readonly informers = new Map<string, Informer>();
  private started = false;

  constructor(
    private readonly client: ApiClient,
    private readonly defaults: Omit<InformerOptions, 'name' | 'logger'> & { logger?: Logger } = {},
  ) {}

  /** The informer of a resource (all namespaces), created on first use; running once start() was called. */
  forResource(gvr: GroupVersionResource): Informer {
    const key = gvrKey(gvr);
    let informer = this.informers.get(key);
    if (!informer) {
      informer = new Informer(this.client.resource(gvr), { ...this.defaults, name: key });
      this.informers.set(key, informer);
      if (this.started) informer.run();
    }
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
