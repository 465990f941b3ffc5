/** The endpointslice-mirroring-controller's descriptor: its names, role and start. */
import type { ControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const endpointSliceMirroringDescriptor: ControllerDescriptor = {
  name: 'endpointslice-mirroring-controller',
  aliases: ['endpointslicemirroring'],
  defaultOn: true,
  serviceAccount: 'endpointslicemirroring-controller',
  async start(ctx) {
    const { EndpointSliceMirroringController } = await import('./endpointslice-mirroring-controller.js');
    return new EndpointSliceMirroringController(ctx);
  },
};
