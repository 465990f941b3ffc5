/** The persistentvolume-binder-controller's descriptor: its names, role and start. */
import { newControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const pvBinderDescriptor = newControllerDescriptor('persistentvolume-binder-controller', {
  aliases: ['persistentvolume-binder'],
  serviceAccount: 'persistent-volume-binder',
  async start(ctx) {
    const { PvBinderController } = await import('./pv-binder-controller.js');
    return new PvBinderController(ctx);
  },
});
