/** The certificatesigningrequest-cleaner-controller's descriptor: its names, role and start. */
import type { ControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const csrCleanerDescriptor: ControllerDescriptor = {
  name: 'certificatesigningrequest-cleaner-controller',
  aliases: ['csrcleaner'],
  defaultOn: true,
  serviceAccount: 'certificate-controller',
  async start(ctx) {
    const { CsrCleaner } = await import('./csr-cleaner.js');
    return new CsrCleaner(ctx);
  },
};
