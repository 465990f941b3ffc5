/** The endpoints-controller's descriptor: its names, role and start. */
import type { ControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const endpointsDescriptor: ControllerDescriptor = {
  name: 'endpoints-controller',
  aliases: ['endpoint'],
  defaultOn: true,
  serviceAccount: 'endpoint-controller',
  async start(ctx) {
    const { EndpointsController } = await import('./endpoints-controller.js');
    return new EndpointsController(ctx);
  },
};
