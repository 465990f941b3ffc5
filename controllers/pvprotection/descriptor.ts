/** The persistentvolume-protection-controller's descriptor: its names, role and start. */
import type { ControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const pvProtectionDescriptor: ControllerDescriptor = {
  name: 'persistentvolume-protection-controller',
  aliases: ['pv-protection'],
  defaultOn: true,
  serviceAccount: 'pv-protection-controller',
  async start(ctx) {
    const { PvProtectionController } = await import('./pv-protection-controller.js');
    return new PvProtectionController(ctx);
  },
};
