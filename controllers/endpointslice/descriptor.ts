/** The endpointslice-controller's descriptor: its names, role and start. */
import { newControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const endpointSliceDescriptor = newControllerDescriptor('endpointslice-controller', {
  aliases: ['endpointslice'],
  serviceAccount: 'endpointslice-controller',
  async start(ctx) {
    const { EndpointSliceController } = await import('./endpointslice-controller.js');
    return new EndpointSliceController(ctx);
  },
});
