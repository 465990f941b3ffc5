/** The disruption-controller's descriptor: its names, role and start. */
import { newControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const disruptionDescriptor = newControllerDescriptor('disruption-controller', {
  aliases: ['disruption'],
  serviceAccount: 'disruption-controller',
  async start(ctx) {
    const { DisruptionController } = await import('./disruption-controller.js');
    return new DisruptionController(ctx);
  },
});
