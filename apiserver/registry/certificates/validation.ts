/**
 * CertificateSigningRequest validation for certificates/v1 (Kubernetes' validateCertificateSigningRequest
 * and the update rules of ValidateCertificateSigningRequest{Status,Approval}Update).
 */
import type { FieldError } from '../../api/field-errors.js';
import { duplicate, fieldPath, forbidden, goTyped, invalid, notSupported, required } from '../../api/field-errors.js';
import { csrRequestError } from './csr-request.js';
import { certificateDataError } from './certificate-data.js';
import { validateSignerName } from './signer-name.js';
import type { CertificateSigningRequest, CertificateSigningRequestCondition as CsrCondition } from '../../api/generated/types.js';

const VALID_USAGES = [
  'any',
  'cert sign',
  'client auth',
  'code signing',
  'content commitment',
  'crl sign',
  'data encipherment',
  'decipher only',
  'digital signature',
  'email protection',
  'encipher only',
  'ipsec end system',
  'ipsec tunnel',
  'ipsec user',
  'key agreement',
  'key encipherment',
  'microsoft sgc',
  'netscape sgc',
  'ocsp signing',
  's/mime',
  'server auth',
  'signing',
  'timestamping',
];
/** Condition types whose status can only be True. */
const TRUE_ONLY_TYPES = ['Approved', 'Denied', 'Failed'];
const ALL_STATUSES = ['False', 'True', 'Unknown'];
const MIN_EXPIRATION_SECONDS = 600;

const bytes = (b64: string | undefined) => Buffer.from(b64 ?? '', 'base64');

function validateConditions(conditions: CsrCondition[]): FieldError[] {
  const errors: FieldError[] = [];
  const path = fieldPath('status', 'conditions');
  const seen = new Set<string>();
  let approved = false;
  let denied = false;
  conditions.forEach((c, i) => {
    const type = c.type ?? '';
    const status = c.status ?? '';
    if (!type) errors.push(required(path.index(i).child('type')));
    const allowed = TRUE_ONLY_TYPES.includes(type) ? ['True'] : ALL_STATUSES;
    if (!status) errors.push(required(path.index(i).child('status')));
    else if (!allowed.includes(status)) errors.push(notSupported(path.index(i).child('status'), status, allowed));
    if ((type === 'Approved' && denied) || (type === 'Denied' && approved)) {
      errors.push(invalid(path.index(i).child('type'), type, 'Approved and Denied conditions are mutually exclusive'));
    }
    approved ||= type === 'Approved';
    denied ||= type === 'Denied';
    if (seen.has(type)) errors.push(duplicate(path.index(i).child('type'), type));
    seen.add(type);
  });
  return errors;
}

/**
 * The object's own rules: a signed PEM request, usages (required, known, unique), a signer name (the
 * legacy-unknown signer refused), expirationSeconds ≥ 600, conditions, and — when `checkCertificate` —
 * the certificate content.
 */
export function validateCsr(csr: CertificateSigningRequest, legacySignerName: string, checkCertificate: boolean): FieldError[] {
  const spec = csr.spec ?? {};
  const specPath = fieldPath('spec');
  const errors: FieldError[] = [];
  const requestError = csrRequestError(bytes(spec.request));
  // The request is []byte in Kubernetes: its bytes print as Go's %#v ([]byte(nil) when absent).
  const request = goTyped('[]byte', spec.request === undefined ? null : bytes(spec.request));
  if (requestError) errors.push(invalid(specPath.child('request'), request, requestError));
  const usages = spec.usages ?? [];
  if (usages.length === 0) errors.push(required(specPath.child('usages')));
  usages.forEach((u, i) => {
    if (!VALID_USAGES.includes(u)) errors.push(notSupported(specPath.child('usages').index(i), u, VALID_USAGES));
  });
  usages.forEach((u, i) => {
    if (usages.indexOf(u) < i) errors.push(duplicate(specPath.child('usages').index(i), u));
  });
  const signerName = spec.signerName ?? '';
  if (signerName === legacySignerName)
    errors.push(invalid(specPath.child('signerName'), signerName, 'the legacy signerName is not allowed via this API version'));
  else errors.push(...validateSignerName(specPath.child('signerName'), signerName));
  if (spec.expirationSeconds !== undefined && spec.expirationSeconds < MIN_EXPIRATION_SECONDS) {
    errors.push(
      invalid(specPath.child('expirationSeconds'), spec.expirationSeconds, 'may not specify a duration less than 600 seconds (10 minutes)'),
    );
  }
  errors.push(...validateConditions(csr.status?.conditions ?? []));
  const certificateError = checkCertificate ? certificateDataError(bytes(csr.status?.certificate)) : undefined;
  if (certificateError) errors.push(invalid(fieldPath('status', 'certificate'), '<certificate data>', certificateError));
  return errors;
}

const countOf = (csr: CertificateSigningRequest, type: string) => (csr.status?.conditions ?? []).filter((c) => c.type === type).length;

/**
 * What an update may not do to conditions: remove an Approved, Denied or Failed condition, or — unless
 * through /approval (`approval`) — add an Approved or Denied one.
 */
export function validateConditionChanges(csr: CertificateSigningRequest, old: CertificateSigningRequest, approval: boolean): FieldError[] {
  const errors: FieldError[] = [];
  const path = fieldPath('status', 'conditions');
  for (const type of TRUE_ONLY_TYPES) {
    if (countOf(csr, type) < countOf(old, type)) errors.push(forbidden(path, `updates may not remove a condition of type "${type}"`));
  }
  if (!approval) {
    for (const type of ['Approved', 'Denied']) {
      if (countOf(csr, type) > countOf(old, type)) errors.push(forbidden(path, `updates may not add a condition of type "${type}"`));
    }
  }
  return errors;
}

/** A certificate, once issued, stays as it is. */
export function validateCertificateChange(csr: CertificateSigningRequest, old: CertificateSigningRequest): FieldError[] {
  const cert = csr.status?.certificate ?? '';
  const oldCert = old.status?.certificate ?? '';
  if (cert === oldCert || !oldCert) return [];
  return [forbidden(fieldPath('status', 'certificate'), 'updates may not modify existing certificate content')];
}
