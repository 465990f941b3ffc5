/** The ttl-controller's descriptor: its names, role and start. */
import { newControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const ttlDescriptor = newControllerDescriptor('ttl-controller', {
  aliases: ['ttl'],
  serviceAccount: 'ttl-controller',
  async start(ctx) {
    const { TtlController } = await import('./ttl-controller.js');
    return new TtlController(ctx);
  },
});
