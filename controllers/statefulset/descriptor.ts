/** The statefulset-controller's descriptor: its names, role and start. */
import type { ControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const statefulSetDescriptor: ControllerDescriptor = {
  name: 'statefulset-controller',
  aliases: ['statefulset'],
  defaultOn: true,
  serviceAccount: 'statefulset-controller',
  async start(ctx) {
    const { StatefulSetController } = await import('./statefulset-controller.js');
    return new StatefulSetController(ctx);
  },
};
