/** The certificatesigningrequest-approving-controller's descriptor: its names, role and start. */
import type { ControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const csrApprovingDescriptor: ControllerDescriptor = {
  name: 'certificatesigningrequest-approving-controller',
  aliases: ['csrapproving'],
  defaultOn: true,
  serviceAccount: 'certificate-controller',
  async start(ctx) {
    const { CsrApprovingController } = await import('./csr-approving-controller.js');
    return new CsrApprovingController(ctx);
  },
};
