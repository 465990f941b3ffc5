/**
 * The ServiceAccount controllers' descriptors: the one that creates `default` accounts, the token
 * controller (it signs with --service-account-private-key-file, read before the manager serves, and
 * stays off without it; it runs as the manager itself, as in Kubernetes) and the legacy token cleaner.
 */
import { parseSigningKey, type SigningKey } from '../../apiserver/api/serviceaccount/signing-key.js';
import { readFileSync } from 'node:fs';
import { newControllerDescriptor } from '../controllerutil/controller-descriptor.js';

/** The key of --service-account-private-key-file; throws naming the file. */
function serviceAccountSigningKey(file: string): SigningKey {
  return parseSigningKey(readFileSync(file, 'utf8'), file);
}

export const serviceAccountDescriptor = newControllerDescriptor('serviceaccount-controller', {
  aliases: ['serviceaccount'],
  serviceAccount: 'service-account-controller',
  async start(ctx) {
    const { ServiceAccountsController } = await import('./serviceaccounts-controller.js');
    return new ServiceAccountsController(ctx);
  },
});

export const serviceAccountTokenDescriptor = newControllerDescriptor('serviceaccount-token-controller', {
  aliases: ['serviceaccount-token'],
  check: ({ config }) => {
    if (config.serviceAccountKeyFile) serviceAccountSigningKey(config.serviceAccountKeyFile);
  },
  async start(ctx, config) {
    if (!config.serviceAccountKeyFile) {
      ctx.logger.info('serviceaccount-token-controller is disabled because there is no private key');
      return undefined;
    }
    const signingKey = serviceAccountSigningKey(config.serviceAccountKeyFile);
    const { TokensController } = await import('./tokens-controller.js');
    return new TokensController(ctx, { signingKey, rootCaPem: ctx.rootCaPem ?? '' });
  },
});

export const legacyTokenCleanerDescriptor = newControllerDescriptor('legacy-serviceaccount-token-cleaner-controller', {
  aliases: ['legacy-service-account-token-cleaner'],
  defaultOn: false,
  serviceAccount: 'legacy-service-account-token-cleaner',
  async start(ctx, config) {
    const { LegacyTokenCleaner } = await import('./legacy-token-cleaner.js');
    return new LegacyTokenCleaner(ctx, { cleanUpPeriodMs: config.legacyTokenCleanUpPeriodMs });
  },
});
