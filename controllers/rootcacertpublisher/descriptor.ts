/** The root-ca-certificate-publisher-controller's descriptor: its names, role and start. */
import { newControllerDescriptor, requireRootCa } from '../controllerutil/controller-descriptor.js';

export const rootCaCertPublisherDescriptor = newControllerDescriptor('root-ca-certificate-publisher-controller', {
  aliases: ['root-ca-cert-publisher'],
  serviceAccount: 'root-ca-cert-publisher',
  check: requireRootCa('root-ca-certificate-publisher-controller'),
  async start(ctx) {
    const { RootCaCertPublisher } = await import('./publisher.js');
    return new RootCaCertPublisher(ctx, ctx.rootCaPem!);
  },
});
