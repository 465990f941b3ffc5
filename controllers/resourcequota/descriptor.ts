/** The resourcequota-controller's descriptor: its names, role and start. */
import { newControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const resourceQuotaDescriptor = newControllerDescriptor('resourcequota-controller', {
  aliases: ['resourcequota'],
  serviceAccount: 'resourcequota-controller',
  async start(ctx) {
    const { ResourceQuotaController } = await import('./resource-quota-controller.js');
    return new ResourceQuotaController(ctx);
  },
});
