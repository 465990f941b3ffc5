/** The disruption-controller's descriptor: its names, role and start. */
import type { ControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const disruptionDescriptor: ControllerDescriptor = {
  name: 'disruption-controller',
  aliases: ['disruption'],
  defaultOn: true,
  serviceAccount: 'disruption-controller',
  async start(ctx) {
    const { DisruptionController } = await import('./disruption-controller.js');
    return new DisruptionController(ctx);
  },
};
