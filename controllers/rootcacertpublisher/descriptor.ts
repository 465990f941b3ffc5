/** The root-ca-certificate-publisher-controller's descriptor: its names, role and start. */
import { type ControllerDescriptor, requireRootCa } from '../controllerutil/controller-descriptor.js';

export const rootCaCertPublisherDescriptor: ControllerDescriptor = {
  name: 'root-ca-certificate-publisher-controller',
  aliases: ['root-ca-cert-publisher'],
  defaultOn: true,
  serviceAccount: 'root-ca-cert-publisher',
  check: requireRootCa('root-ca-certificate-publisher-controller'),
  async start(ctx) {
    const { RootCaCertPublisher } = await import('./publisher.js');
    return new RootCaCertPublisher(ctx, ctx.rootCaPem!);
  },
};
