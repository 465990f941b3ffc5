/** The namespace-controller's descriptor: its names, role and start. */
import type { ControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const namespaceDescriptor: ControllerDescriptor = {
  name: 'namespace-controller',
  aliases: ['namespace'],
  defaultOn: true,
  serviceAccount: 'namespace-controller',
  async start(ctx, config) {
    const { NamespaceController } = await import('./namespace-controller.js');
    return new NamespaceController(ctx, {
      workers: config.concurrentNamespaceSyncs,
      resyncPeriodMs: config.namespaceSyncPeriodMs,
      deletionGracePeriodMs: config.namespaceDeletionGracePeriodMs,
    });
  },
};
