/** The namespace-controller's descriptor: its names, role and start. */
import { newControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const namespaceDescriptor = newControllerDescriptor('namespace-controller', {
  aliases: ['namespace'],
  serviceAccount: 'namespace-controller',
  async start(ctx, config) {
    const { NamespaceController } = await import('./namespace-controller.js');
    return new NamespaceController(ctx, {
      workers: config.concurrentNamespaceSyncs,
      resyncPeriodMs: config.namespaceSyncPeriodMs,
      deletionGracePeriodMs: config.namespaceDeletionGracePeriodMs,
    });
  },
});
