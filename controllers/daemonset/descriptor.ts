/** The daemonset-controller's descriptor: its names, role and start. */
import { newControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const daemonSetDescriptor = newControllerDescriptor('daemonset-controller', {
  aliases: ['daemonset'],
  serviceAccount: 'daemon-set-controller',
  async start(ctx) {
    const { DaemonSetController } = await import('./daemonset-controller.js');
    return new DaemonSetController(ctx);
  },
});
