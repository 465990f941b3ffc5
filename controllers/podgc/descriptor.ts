/** The pod-garbage-collector-controller's descriptor: its names, role and start. */
import type { ControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const podGcDescriptor: ControllerDescriptor = {
  name: 'pod-garbage-collector-controller',
  aliases: ['podgc'],
  defaultOn: true,
  serviceAccount: 'pod-garbage-collector',
  async start(ctx) {
    const { PodGcController } = await import('./pod-gc-controller.js');
    return new PodGcController(ctx);
  },
};
