/** The persistentvolume-protection-controller's descriptor: its names, role and start. */
import { newControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const pvProtectionDescriptor = newControllerDescriptor('persistentvolume-protection-controller', {
  aliases: ['pv-protection'],
  serviceAccount: 'pv-protection-controller',
  async start(ctx) {
    const { PvProtectionController } = await import('./pv-protection-controller.js');
    return new PvProtectionController(ctx);
  },
});
