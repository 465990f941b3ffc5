/** The persistentvolume-binder-controller's descriptor: its names, role and start. */
import type { ControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const pvBinderDescriptor: ControllerDescriptor = {
  name: 'persistentvolume-binder-controller',
  aliases: ['persistentvolume-binder'],
  defaultOn: true,
  serviceAccount: 'persistent-volume-binder',
  async start(ctx) {
    const { PvBinderController } = await import('./pv-binder-controller.js');
    return new PvBinderController(ctx);
  },
};
