/** The node-lifecycle-controller's descriptor: its names, role and start. */
import type { ControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const nodeLifecycleDescriptor: ControllerDescriptor = {
  name: 'node-lifecycle-controller',
  aliases: ['nodelifecycle'],
  defaultOn: true,
  serviceAccount: 'node-controller',
  async start(ctx, config) {
    const { NodeLifecycleController } = await import('./node-lifecycle-controller.js');
    return new NodeLifecycleController(ctx, {
      gracePeriodMs: config.nodeMonitorGracePeriodMs,
      periodMs: config.nodeMonitorPeriodMs,
      rates: config.nodeEviction,
    });
  },
};
