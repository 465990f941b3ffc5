/** The garbage-collector-controller's descriptor: its names, role and start. */
import { newControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const garbageCollectorDescriptor = newControllerDescriptor('garbage-collector-controller', {
  aliases: ['garbagecollector'],
  serviceAccount: 'generic-garbage-collector',
  async start(ctx, config) {
    const { GarbageCollector } = await import('./garbage-collector.js');
    return new GarbageCollector(ctx, { workers: config.concurrentGcSyncs, syncPeriodMs: config.gcSyncPeriodMs });
  },
});
