/**
 * CertificateSigningRequest (certificates/v1): the requestor recorded from the request's user on create,
 * a spec that never changes after create, status written only through /status (conditions other than
 * Approved/Denied, and the certificate) and /approval (the conditions, Approved/Denied included).
 */
import { deepCopy } from '../../api/object.js';
import { type StrategyContext, typedStrategy, typedSubresource } from '../../api/strategy.js';
import { timestamp } from '../../api/object-meta.js';
import { builtInSigners } from '../../api/certificates/signers.js';
import { withStatusOf } from '../generic/status-subresource.js';
import type {
  CertificateSigningRequest,
  CertificateSigningRequestCondition as CsrCondition,
  CertificateSigningRequestSpec,
} from '../../api/generated/types.js';
import { validateCertificateChange, validateConditionChanges, validateCsr } from './validation.js';

/** The signer Kubernetes kept for v1beta1 compatibility, refused by v1. */
const legacySignerName = (ctx: StrategyContext) => builtInSigners(ctx.domain).legacyUnknown;

const conditionsOf = (csr: CertificateSigningRequest): CsrCondition[] => csr.status?.conditions ?? [];

/** Keeps the stored instances of a condition type when the new object has as many of them. */
function preserveConditionInstances(csr: CertificateSigningRequest, old: CertificateSigningRequest, type: string): void {
  const indices = (c: CertificateSigningRequest) => conditionsOf(c).flatMap((cond, i) => (cond.type === type ? [i] : []));
  const oldIndices = indices(old);
  const newIndices = indices(csr);
  if (oldIndices.length !== newIndices.length) return;
  newIndices.forEach((n, i) => (conditionsOf(csr)[n] = deepCopy(conditionsOf(old)[oldIndices[i]])));
}

/** Fills lastUpdateTime with now, lastTransitionTime with the stored one of the same type and status or now. */
function populateConditionTimestamps(csr: CertificateSigningRequest, old: CertificateSigningRequest, now: Date): void {
  for (const c of conditionsOf(csr)) {
    c.lastUpdateTime ||= timestamp(now);
    if (!c.lastTransitionTime) {
      const same = conditionsOf(old).find((o) => o.type === c.type && o.status === c.status && o.lastTransitionTime);
      c.lastTransitionTime = same?.lastTransitionTime ?? timestamp(now);
    }
  }
}

export const csrStrategy = typedStrategy<CertificateSigningRequest>({
  prepareForCreate(obj, ctx) {
    const csr = obj;
    const spec = (csr.spec ??= {} as CertificateSigningRequestSpec); // validation reports what an absent spec lacks
    delete spec.username;
    delete spec.uid;
    delete spec.groups;
    delete spec.extra;
    const user = ctx.user;
    if (user) {
      spec.username = user.name;
      if (user.uid) spec.uid = user.uid;
      if (user.groups.length > 0) spec.groups = [...user.groups];
      if (user.extra && Object.keys(user.extra).length > 0) spec.extra = deepCopy(user.extra);
    }
    csr.status = {}; // no pre-approved requests
  },
  // As in Kubernetes, a changed spec is not an error: the stored one is kept (status likewise, by the store).
  prepareForUpdate(obj, old) {
    obj.spec = deepCopy(old.spec);
  },
  validate: (obj, ctx) => validateCsr(obj, legacySignerName(ctx), true),
  validateUpdate: (obj, _old, ctx) => validateCsr(obj, legacySignerName(ctx), true),
});

/** /status: conditions (stored Approved/Denied instances kept) and the certificate. */
export const csrStatusStrategy = typedSubresource<CertificateSigningRequest>({
  prepareForUpdate(obj, old, ctx) {
    const next = withStatusOf(obj, old);
    preserveConditionInstances(next, old, 'Approved');
    preserveConditionInstances(next, old, 'Denied');
    populateConditionTimestamps(next, old, ctx.now);
    return next;
  },
  validateUpdate(obj, old, ctx) {
    const csr = obj;
    const prev = old;
    const certificateChanged = (csr.status?.certificate ?? '') !== (prev.status?.certificate ?? '');
    return [
      ...validateCsr(csr, legacySignerName(ctx), certificateChanged),
      ...validateConditionChanges(csr, prev, false),
      ...validateCertificateChange(csr, prev),
    ];
  },
});

/** /approval: only status.conditions change, Approved and Denied included. */
export const csrApprovalStrategy = typedSubresource<CertificateSigningRequest>({
  prepareForUpdate(obj, old, ctx) {
    const conditions = deepCopy(obj.status?.conditions);
    // The request's metadata, as csrApprovalStrategy (it resets only spec and status).
    const next = withStatusOf(obj, old);
    next.status = { ...deepCopy(old.status), conditions };
    if (conditions === undefined) delete next.status.conditions;
    populateConditionTimestamps(next, old, ctx.now);
    return next;
  },
  validateUpdate(obj, old, ctx) {
    const csr = obj;
    return [...validateCsr(csr, legacySignerName(ctx), false), ...validateConditionChanges(csr, old, true)];
  },
});
