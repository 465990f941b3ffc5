/**
 * The certificatesigningrequest-signing-controller's descriptor: its names, role and start. The CA
 * of each built-in signer the flags configure is read before the manager serves, so unreadable or
 * mismatched files stop the start; without any CA the controller stays off.
 */
import { type BuiltInSigners, builtInSigners } from '../../apiserver/api/certificates/signers.js';
import type { ApiDomain } from '../../apiserver/api/domain.js';
import { type ControllerConfig, newControllerDescriptor } from '../controllerutil/controller-descriptor.js';
import { CaProvider } from './ca-provider.js';
import { messageOf } from '../../apiserver/api/thrown.js';

const NAME = 'certificatesigningrequest-signing-controller';

/** Whether a configured key names a built-in signer (the flags only make those). */
function isSignerKey(names: BuiltInSigners, key: string): key is keyof BuiltInSigners {
  return Object.hasOwn(names, key);
}

/** The CA of each configured built-in signer, by the signer's name under the domain. */
function signingCas(domain: ApiDomain, config: ControllerConfig): Map<string, CaProvider> {
  const names = builtInSigners(domain);
  const cas = new Map<string, CaProvider>();
  for (const [signer, files] of Object.entries(config.csrSigning.cas)) {
    if (!files || !isSignerKey(names, signer)) continue;
    const provider = new CaProvider(files);
    try {
      provider.current();
    } catch (err) {
      throw new Error(`${NAME}: ${files.certFile}: ${messageOf(err)}`);
    }
    cas.set(names[signer], provider);
  }
  return cas;
}

export const csrSigningDescriptor = newControllerDescriptor(NAME, {
  aliases: ['csrsigning'],
  serviceAccount: 'certificate-controller',
  check: ({ domain, config }) => void signingCas(domain, config),
  async start(ctx, config) {
    const cas = signingCas(ctx.domain, config);
    if (cas.size === 0) {
      ctx.logger.info('skipping CSR signer controller because no csr cert/key was specified');
      return undefined;
    }
    const { CsrSigningController } = await import('./csr-signing-controller.js');
    return new CsrSigningController(ctx, { cas, durationMs: config.csrSigning.durationMs });
  },
});
