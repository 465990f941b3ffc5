/** The bootstrap-signer and token-cleaner controllers' descriptors: their names, roles and starts. */
import { newControllerDescriptor, requireRootCa } from '../controllerutil/controller-descriptor.js';

export const bootstrapSignerDescriptor = newControllerDescriptor('bootstrap-signer-controller', {
  aliases: ['bootstrapsigner'],
  defaultOn: false,
  serviceAccount: 'bootstrap-signer',
  check: requireRootCa('bootstrap-signer-controller'),
  async start(ctx) {
    const { BootstrapSigner } = await import('./bootstrap-signer.js');
    return new BootstrapSigner(ctx, ctx.rootCaPem!);
  },
});

export const tokenCleanerDescriptor = newControllerDescriptor('token-cleaner-controller', {
  aliases: ['tokencleaner'],
  defaultOn: false,
  serviceAccount: 'token-cleaner',
  async start(ctx) {
    const { TokenCleaner } = await import('./token-cleaner.js');
    return new TokenCleaner(ctx);
  },
});
