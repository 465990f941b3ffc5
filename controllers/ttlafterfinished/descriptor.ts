/** The ttl-after-finished-controller's descriptor: its names, role and start. */
import { newControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const ttlAfterFinishedDescriptor = newControllerDescriptor('ttl-after-finished-controller', {
  aliases: ['ttl-after-finished'],
  serviceAccount: 'ttl-after-finished-controller',
  async start(ctx) {
    const { TtlAfterFinishedController } = await import('./ttl-after-finished-controller.js');
    return new TtlAfterFinishedController(ctx);
  },
});
