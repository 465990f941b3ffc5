/** The persistentvolumeclaim-protection-controller's descriptor: its names, role and start. */
import type { ControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const pvcProtectionDescriptor: ControllerDescriptor = {
  name: 'persistentvolumeclaim-protection-controller',
  aliases: ['pvc-protection'],
  defaultOn: true,
  serviceAccount: 'pvc-protection-controller',
  async start(ctx) {
    const { PvcProtectionController } = await import('./pvc-protection-controller.js');
    return new PvcProtectionController(ctx);
  },
};
