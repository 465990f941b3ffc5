/** The ttl-controller's descriptor: its names, role and start. */
import type { ControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const ttlDescriptor: ControllerDescriptor = {
  name: 'ttl-controller',
  aliases: ['ttl'],
  defaultOn: true,
  serviceAccount: 'ttl-controller',
  async start(ctx) {
    const { TtlController } = await import('./ttl-controller.js');
    return new TtlController(ctx);
  },
};
