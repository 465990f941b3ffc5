/** The pod-garbage-collector-controller's descriptor: its names, role and start. */
import { newControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const podGcDescriptor = newControllerDescriptor('pod-garbage-collector-controller', {
  aliases: ['podgc'],
  serviceAccount: 'pod-garbage-collector',
  async start(ctx) {
    const { PodGcController } = await import('./pod-gc-controller.js');
    return new PodGcController(ctx);
  },
});
