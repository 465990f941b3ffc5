/** The endpointslice-mirroring-controller's descriptor: its names, role and start. */
import { newControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const endpointSliceMirroringDescriptor = newControllerDescriptor('endpointslice-mirroring-controller', {
  aliases: ['endpointslicemirroring'],
  serviceAccount: 'endpointslicemirroring-controller',
  async start(ctx) {
    const { EndpointSliceMirroringController } = await import('./endpointslice-mirroring-controller.js');
    return new EndpointSliceMirroringController(ctx);
  },
});
