/** The certificatesigningrequest-cleaner-controller's descriptor: its names, role and start. */
import { newControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const csrCleanerDescriptor = newControllerDescriptor('certificatesigningrequest-cleaner-controller', {
  aliases: ['csrcleaner'],
  serviceAccount: 'certificate-controller',
  async start(ctx) {
    const { CsrCleaner } = await import('./csr-cleaner.js');
    return new CsrCleaner(ctx);
  },
});
