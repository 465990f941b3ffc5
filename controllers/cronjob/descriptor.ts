/** The cronjob-controller's descriptor: its names, role and start. */
import type { ControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const cronJobDescriptor: ControllerDescriptor = {
  name: 'cronjob-controller',
  aliases: ['cronjob'],
  defaultOn: true,
  serviceAccount: 'cronjob-controller',
  async start(ctx) {
    const { CronJobController } = await import('./cronjob-controller.js');
    return new CronJobController(ctx);
  },
};
