/** The deployment-controller's descriptor: its names, role and start. */
import { newControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const deploymentDescriptor = newControllerDescriptor('deployment-controller', {
  aliases: ['deployment'],
  serviceAccount: 'deployment-controller',
  async start(ctx) {
    const { DeploymentController } = await import('./deployment-controller.js');
    return new DeploymentController(ctx);
  },
});
