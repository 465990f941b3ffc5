/** The job-controller's descriptor: its names, role and start. */
import { newControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const jobDescriptor = newControllerDescriptor('job-controller', {
  aliases: ['job'],
  serviceAccount: 'job-controller',
  async start(ctx) {
    const { JobController } = await import('./job-controller.js');
    return new JobController(ctx);
  },
});
