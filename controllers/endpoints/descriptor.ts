/** The endpoints-controller's descriptor: its names, role and start. */
import { newControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const endpointsDescriptor = newControllerDescriptor('endpoints-controller', {
  aliases: ['endpoint'],
  serviceAccount: 'endpoint-controller',
  async start(ctx) {
    const { EndpointsController } = await import('./endpoints-controller.js');
    return new EndpointsController(ctx);
  },
});
