/** The daemonset-controller's descriptor: its names, role and start. */
import type { ControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const daemonSetDescriptor: ControllerDescriptor = {
  name: 'daemonset-controller',
  aliases: ['daemonset'],
  defaultOn: true,
  serviceAccount: 'daemon-set-controller',
  async start(ctx) {
    const { DaemonSetController } = await import('./daemonset-controller.js');
    return new DaemonSetController(ctx);
  },
};
