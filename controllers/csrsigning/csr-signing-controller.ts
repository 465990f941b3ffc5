/**
 * The CSR signing controller (kube-controller-manager's csrsigning): for every approved, not failed,
 * not yet issued request of a built-in signer with a configured CA, the request is checked against its
 * signer's rules — a violation adds a `Failed` condition (reason SignerValidationFailure) — and
 * otherwise signed: the certificate lives min(--cluster-signing-duration, spec.expirationSeconds),
 * at least 10 minutes, and is written to status.certificate.
 */
import { asCsr, hasTrueCondition, isApproved } from '../../apiserver/api/certificates/csr.js';
import type { CertificateSigningRequest } from '../../apiserver/api/generated/types.js';
import { parseCertificateRequestPem } from '../../apiserver/api/certificates/pkcs10.js';
import { builtInSigners } from '../../apiserver/api/certificates/signers.js';
import { type ApiObject, deepCopy } from '../../apiserver/api/object.js';
import type { Controller, ControllerContext } from '../controllerutil/controller-context.js';
import { CertificateController, csrGvr } from '../certificates/certificate-controller.js';
import type { CaProvider } from './ca-provider.js';
import { type SignerRule, signerRules } from './signer-rules.js';

const BACKDATE_MS = 5 * 60_000;
const SHORT_MS = 8 * 3_600_000;
/** Requested durations are raised to this (twice the backdate). */
const MIN_DURATION_MS = 10 * 60_000;

export interface CsrSigningOptions {
  /** The CA of each signer (by its name under the domain) that this controller signs for. */
  cas: Map<string, CaProvider>;
  /** --cluster-signing-duration: the longest lifetime. */
  durationMs: number;
  now?: () => Date;
}

/** min(duration, expirationSeconds), never under 10 minutes. */
export function certificateLifetimeMs(durationMs: number, expirationSeconds: number | undefined): number {
  if (expirationSeconds === undefined) return durationMs;
  return Math.max(MIN_DURATION_MS, Math.min(durationMs, expirationSeconds * 1000));
}

export class CsrSigningController implements Controller {
  private readonly base: CertificateController;
  private readonly rules: Map<string, SignerRule>;

  constructor(
    private readonly ctx: ControllerContext,
    private readonly opts: CsrSigningOptions,
  ) {
    this.rules = signerRules(builtInSigners(ctx.domain));
    this.base = new CertificateController(ctx, {
      name: 'certificate',
      failure: 'signing a certificate signing request',
      handle: (obj, csr) => this.sign(obj, csr),
    });
  }

  run(signal: AbortSignal): Promise<void> {
    return this.base.run(signal);
  }

  async sync(name: string): Promise<void> {
    await this.base.sync(name);
  }

  private async sign(obj: ApiObject, cached: CertificateSigningRequest): Promise<undefined> {
    if (!isApproved(cached) || hasTrueCondition(cached, 'Failed')) return;
    const signerName = cached.spec?.signerName ?? '';
    const ca = this.opts.cas.get(signerName);
    const rule = this.rules.get(signerName);
    if (!ca || !rule) return;
    const req = parseCertificateRequestPem(Buffer.from(cached.spec?.request ?? '', 'base64'));
    const usages = cached.spec?.usages ?? [];
    const copy = deepCopy(obj);
    const csr = asCsr(copy);
    const violation = rule(req, usages);
    const status = (csr.status ??= {});
    if (violation) {
      const conditions = (status.conditions ??= []);
      conditions.push({
        type: 'Failed',
        status: 'True',
        reason: 'SignerValidationFailure',
        message: violation,
        lastUpdateTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      });
    } else {
      const pem = ca.current().sign(req, {
        ttlMs: certificateLifetimeMs(this.opts.durationMs, cached.spec?.expirationSeconds),
        usages,
        backdateMs: BACKDATE_MS,
        shortMs: SHORT_MS,
        now: this.opts.now?.() ?? new Date(),
      });
      status.certificate = Buffer.from(pem).toString('base64');
    }
    await this.ctx.client.resource(csrGvr(this.ctx)).update(copy, 'status');
    return undefined;
  }
}
