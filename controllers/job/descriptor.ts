/** The job-controller's descriptor: its names, role and start. */
import type { ControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const jobDescriptor: ControllerDescriptor = {
  name: 'job-controller',
  aliases: ['job'],
  defaultOn: true,
  serviceAccount: 'job-controller',
  async start(ctx) {
    const { JobController } = await import('./job-controller.js');
    return new JobController(ctx);
  },
};
