/**
 * The CSR cleaner (kube-controller-manager's csrcleaner): every poll (1 hour) each request is looked
 * at and deleted when it is issued and approved more than 1 hour ago, denied or failed more than
 * 1 hour ago (by the condition's lastUpdateTime), pending (no conditions) for more than 24 hours, or
 * issued with a certificate that has expired. An approved request that was never issued stays, as in
 * Kubernetes.
 */
import { X509Certificate } from 'node:crypto';
import { asCsr } from '../../apiserver/api/certificates/csr.js';
import type { CertificateSigningRequest } from '../../apiserver/api/generated/types.js';
import { decodePemBlocks } from '../../apiserver/api/certificates/pem.js';
import { isApiError } from '../../apiserver/api/status.js';
import type { Controller, ControllerContext } from '../controllerutil/controller-context.js';
import { csrGvr } from '../certificates/certificate-controller.js';
import { runPeriodically } from '../controllerutil/run-controller.js';
import type { Informer } from '../informers/informer.js';
import { messageOf } from '../../apiserver/api/thrown.js';

const HOUR_MS = 3_600_000;
export const APPROVED_EXPIRATION_MS = HOUR_MS;
export const DENIED_EXPIRATION_MS = HOUR_MS;
export const FAILED_EXPIRATION_MS = HOUR_MS;
export const PENDING_EXPIRATION_MS = 24 * HOUR_MS;

export interface CsrCleanerOptions {
  /** How often every request is looked at (1 hour). */
  pollIntervalMs?: number;
  now?: () => Date;
}

/** Why the request should go now, or undefined. */
export function csrExpiry(csr: CertificateSigningRequest, now: Date): string | undefined {
  const conditions = csr.status?.conditions ?? [];
  const issued = !!csr.status?.certificate;
  const olderThan = (t: string | undefined, ms: number) => !!t && now.getTime() - Date.parse(t) > ms;
  if (conditions.length === 0 && olderThan(csr.metadata.creationTimestamp, PENDING_EXPIRATION_MS)) return 'pending past deadline';
  for (const c of conditions) {
    if (c.type === 'Approved' && issued && olderThan(c.lastUpdateTime, APPROVED_EXPIRATION_MS)) return 'issued past deadline';
    if (c.type === 'Denied' && olderThan(c.lastUpdateTime, DENIED_EXPIRATION_MS)) return 'denied past deadline';
    if (c.type === 'Failed' && olderThan(c.lastUpdateTime, FAILED_EXPIRATION_MS)) return 'failed past deadline';
    if (c.type === 'Approved' && issued && certificateExpired(csr.status!.certificate!, now)) return 'issued certificate expired';
  }
  return undefined;
}

function certificateExpired(certificate: string, now: Date): boolean {
  const block = decodePemBlocks(Buffer.from(certificate, 'base64').toString('latin1'))[0];
  if (!block) return false;
  try {
    return now.getTime() > Date.parse(new X509Certificate(block.bytes).validTo);
  } catch {
    return false;
  }
}

export class CsrCleaner implements Controller {
  private readonly csrs: Informer;
  private readonly pollIntervalMs: number;
  private readonly now: () => Date;

  constructor(
    private readonly ctx: ControllerContext,
    opts: CsrCleanerOptions = {},
  ) {
    this.csrs = ctx.informers.forResource(csrGvr(ctx));
    this.pollIntervalMs = opts.pollIntervalMs ?? HOUR_MS;
    this.now = opts.now ?? (() => new Date());
  }

  run(signal: AbortSignal): Promise<void> {
    return runPeriodically(signal, {
      informers: [this.csrs],
      periodMs: this.pollIntervalMs,
      pass: () => this.cleanOnce(),
      logger: this.ctx.logger,
      failure: 'cleaning certificate signing requests',
    });
  }

  /** One pass over every cached request. */
  async cleanOnce(): Promise<void> {
    const client = this.ctx.client.resource(csrGvr(this.ctx));
    for (const csr of this.csrs.indexer.list().map(asCsr)) {
      const reason = csrExpiry(csr, this.now());
      if (!reason) continue;
      try {
        await client.delete(csr.metadata.name!);
        this.ctx.logger.info('cleaned up certificate signing request', { csr: csr.metadata.name, reason });
      } catch (err) {
        if (isApiError(err, 'NotFound')) continue;
        this.ctx.logger.warn('deleting a certificate signing request failed', { csr: csr.metadata.name, error: messageOf(err) });
      }
    }
  }
}
