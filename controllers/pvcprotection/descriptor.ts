/** The persistentvolumeclaim-protection-controller's descriptor: its names, role and start. */
import { newControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const pvcProtectionDescriptor = newControllerDescriptor('persistentvolumeclaim-protection-controller', {
  aliases: ['pvc-protection'],
  serviceAccount: 'pvc-protection-controller',
  async start(ctx) {
    const { PvcProtectionController } = await import('./pvc-protection-controller.js');
    return new PvcProtectionController(ctx);
  },
});
