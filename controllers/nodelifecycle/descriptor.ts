/** The node-lifecycle-controller's descriptor: its names, role and start. */
import { newControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const nodeLifecycleDescriptor = newControllerDescriptor('node-lifecycle-controller', {
  aliases: ['nodelifecycle'],
  serviceAccount: 'node-controller',
  async start(ctx, config) {
    const { NodeLifecycleController } = await import('./node-lifecycle-controller.js');
    return new NodeLifecycleController(ctx, {
      gracePeriodMs: config.nodeMonitorGracePeriodMs,
      periodMs: config.nodeMonitorPeriodMs,
      rates: config.nodeEviction,
    });
  },
});
