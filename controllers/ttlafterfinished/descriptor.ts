/** The ttl-after-finished-controller's descriptor: its names, role and start. */
import type { ControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const ttlAfterFinishedDescriptor: ControllerDescriptor = {
  name: 'ttl-after-finished-controller',
  aliases: ['ttl-after-finished'],
  defaultOn: true,
  serviceAccount: 'ttl-after-finished-controller',
  async start(ctx) {
    const { TtlAfterFinishedController } = await import('./ttl-after-finished-controller.js');
    return new TtlAfterFinishedController(ctx);
  },
};
