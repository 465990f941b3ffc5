/** The resourcequota-controller's descriptor: its names, role and start. */
import type { ControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const resourceQuotaDescriptor: ControllerDescriptor = {
  name: 'resourcequota-controller',
  aliases: ['resourcequota'],
  defaultOn: true,
  serviceAccount: 'resourcequota-controller',
  async start(ctx) {
    const { ResourceQuotaController } = await import('./resource-quota-controller.js');
    return new ResourceQuotaController(ctx);
  },
};
