/** The deployment-controller's descriptor: its names, role and start. */
import type { ControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const deploymentDescriptor: ControllerDescriptor = {
  name: 'deployment-controller',
  aliases: ['deployment'],
  defaultOn: true,
  serviceAccount: 'deployment-controller',
  async start(ctx) {
    const { DeploymentController } = await import('./deployment-controller.js');
    return new DeploymentController(ctx);
  },
};
