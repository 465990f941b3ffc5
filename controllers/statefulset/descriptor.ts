/** The statefulset-controller's descriptor: its names, role and start. */
import { newControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const statefulSetDescriptor = newControllerDescriptor('statefulset-controller', {
  aliases: ['statefulset'],
  serviceAccount: 'statefulset-controller',
  async start(ctx) {
    const { StatefulSetController } = await import('./statefulset-controller.js');
    return new StatefulSetController(ctx);
  },
});
