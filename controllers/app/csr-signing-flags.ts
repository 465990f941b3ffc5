/**
 * The CSR signing controller's flags (kube-controller-manager's CSRSigningControllerOptions): one CA
 * for every built-in signer (--cluster-signing-cert-file/-key-file) or one per signer
 * (--cluster-signing-<signer>-cert-file/-key-file), never both, and the longest certificate lifetime.
 */
import type { BuiltInSigners } from '../../apiserver/api/certificates/signers.js';
import type { FlagSet } from '../../apiserver/component-base/flag/flag-set.js';
import { OptionsError } from '../../apiserver/component-base/flag/options-error.js';

export interface CaFilePair {
  certFile: string;
  keyFile: string;
}

/** What the signing controller runs with: the CA files of each configured signer. */
export interface CsrSigningConfig {
  cas: Partial<Record<keyof BuiltInSigners, CaFilePair>>;
  durationMs: number;
}

/** Kubernetes' flag infix of each built-in signer. */
const SIGNER_FLAGS: [keyof BuiltInSigners, string, string][] = [
  ['nodeServing', 'kubelet-serving', 'kubelet-serving'],
  ['apiServerClientNode', 'kubelet-client', 'kube-apiserver-client-kubelet'],
  ['apiServerClient', 'kube-apiserver-client', 'kube-apiserver-client'],
  ['legacyUnknown', 'legacy-unknown', 'legacy-unknown'],
];

const YEAR_MS = 365 * 24 * 3_600_000;

export class CsrSigningFlags {
  clusterSigningCertFile = '';
  clusterSigningKeyFile = '';
  durationMs = YEAR_MS;
  readonly perSigner: Record<string, string> = {};

  addFlags(fs: FlagSet): void {
    fs.string(
      this,
      'clusterSigningCertFile',
      'cluster-signing-cert-file',
      'Filename containing a PEM-encoded X509 CA certificate used to issue cluster-scoped certificates. If specified, no more specific --cluster-signing-* flag may be specified.',
    );
    fs.string(
      this,
      'clusterSigningKeyFile',
      'cluster-signing-key-file',
      'Filename containing a PEM-encoded RSA or ECDSA private key used to sign cluster-scoped certificates. If specified, no more specific --cluster-signing-* flag may be specified.',
    );
    for (const [, infix, signer] of SIGNER_FLAGS) {
      for (const kind of ['cert', 'key'] as const) {
        const name = `cluster-signing-${infix}-${kind}-file`;
        this.perSigner[name] = '';
        fs.string(
          this.perSigner,
          name,
          name,
          kind === 'cert'
            ? `Filename containing a PEM-encoded X509 CA certificate used to issue certificates for the ${signer} signer. If specified, --cluster-signing-${infix}-key-file must be set as well.`
            : `Filename containing a PEM-encoded RSA or ECDSA private key used to sign certificates for the ${signer} signer. If specified, --cluster-signing-${infix}-cert-file must be set as well.`,
        );
      }
    }
    fs.duration(
      this,
      'durationMs',
      'cluster-signing-duration',
      'The max length of duration signed certificates will be given. Individual CSRs may request shorter certs by setting spec.expirationSeconds.',
    );
  }

  validate(): void {
    const specific = Object.entries(this.perSigner).filter(([, v]) => v);
    if ((this.clusterSigningCertFile || this.clusterSigningKeyFile) && specific.length > 0)
      throw new OptionsError('cannot specify --cluster-signing-{cert,key}-file and other --cluster-signing-*-file flags at the same time');
    if (!this.clusterSigningCertFile !== !this.clusterSigningKeyFile)
      throw new OptionsError('--cluster-signing-cert-file and --cluster-signing-key-file must be given together');
    for (const [, infix] of SIGNER_FLAGS) {
      const cert = this.perSigner[`cluster-signing-${infix}-cert-file`];
      const key = this.perSigner[`cluster-signing-${infix}-key-file`];
      if (!cert !== !key)
        throw new OptionsError(`--cluster-signing-${infix}-cert-file and --cluster-signing-${infix}-key-file must be given together`);
    }
    if (this.durationMs <= 0) throw new OptionsError('--cluster-signing-duration must be greater than zero');
  }

  complete(): CsrSigningConfig {
    const cas: CsrSigningConfig['cas'] = {};
    for (const [signer, infix] of SIGNER_FLAGS) {
      const certFile = this.clusterSigningCertFile || this.perSigner[`cluster-signing-${infix}-cert-file`];
      const keyFile = this.clusterSigningKeyFile || this.perSigner[`cluster-signing-${infix}-key-file`];
      if (certFile && keyFile) cas[signer] = { certFile, keyFile };
    }
    return { cas, durationMs: this.durationMs };
  }
}
