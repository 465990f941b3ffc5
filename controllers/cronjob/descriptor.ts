/** The cronjob-controller's descriptor: its names, role and start. */
import { newControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const cronJobDescriptor = newControllerDescriptor('cronjob-controller', {
  aliases: ['cronjob'],
  serviceAccount: 'cronjob-controller',
  async start(ctx) {
    const { CronJobController } = await import('./cronjob-controller.js');
    return new CronJobController(ctx);
  },
});
