/** The endpointslice-controller's descriptor: its names, role and start. */
import type { ControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const endpointSliceDescriptor: ControllerDescriptor = {
  name: 'endpointslice-controller',
  aliases: ['endpointslice'],
  defaultOn: true,
  serviceAccount: 'endpointslice-controller',
  async start(ctx) {
    const { EndpointSliceController } = await import('./endpointslice-controller.js');
    return new EndpointSliceController(ctx);
  },
};
