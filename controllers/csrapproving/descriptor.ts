/** The certificatesigningrequest-approving-controller's descriptor: its names, role and start. */
import { newControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const csrApprovingDescriptor = newControllerDescriptor('certificatesigningrequest-approving-controller', {
  aliases: ['csrapproving'],
  serviceAccount: 'certificate-controller',
  async start(ctx) {
    const { CsrApprovingController } = await import('./csr-approving-controller.js');
    return new CsrApprovingController(ctx);
  },
});
