/** The garbage-collector-controller's descriptor: its names, role and start. */
import type { ControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const garbageCollectorDescriptor: ControllerDescriptor = {
  name: 'garbage-collector-controller',
  aliases: ['garbagecollector'],
  defaultOn: true,
  serviceAccount: 'generic-garbage-collector',
  async start(ctx, config) {
    const { GarbageCollector } = await import('./garbage-collector.js');
    return new GarbageCollector(ctx, { workers: config.concurrentGcSyncs, syncPeriodMs: config.gcSyncPeriodMs });
  },
};
