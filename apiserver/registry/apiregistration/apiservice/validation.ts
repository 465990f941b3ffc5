/**
 * Kubernetes 1.28's ValidateAPIService: the name is `<version>.<group>` (a path segment), the group a
 * DNS subdomain (empty only for the legacy `v1`), the version a DNS-1035 label, both priorities in
 * range, a local APIService (no service) without caBundle or insecureSkipTLSVerify, a remote one with
 * a service namespace, name and valid port and not both caBundle and insecureSkipTLSVerify.
 */
import type { FieldError } from '../../../api/field-errors.js';
import { fieldPath, invalid, notSupported, required } from '../../../api/field-errors.js';
import type { APIService, APIServiceSpec } from '../../../api/generated/types.js';
import { isDNS1035Label, isDNS1123Subdomain } from '../../../api/validation/names.js';

const CONDITION_STATUSES = ['True', 'False', 'Unknown'];

export function validateAPIService(obj: APIService): FieldError[] {
  const spec: Partial<APIServiceSpec> = obj.spec ?? {};
  const group = spec.group ?? '';
  const version = spec.version ?? '';
  const errs: FieldError[] = [];
  const requiredName = `${version}.${group}`;
  if (obj.metadata.name && obj.metadata.name !== requiredName) {
    errs.push(
      invalid(fieldPath('metadata', 'name'), obj.metadata.name, `must be \`spec.version+"."+spec.group\`: ${JSON.stringify(requiredName)}`),
    );
  }
  const specPath = fieldPath('spec');
  if (group === '' && version !== 'v1') {
    errs.push(required(specPath.child('group'), 'only v1 may have an empty group and it better be legacy kube'));
  }
  if (group !== '') for (const e of isDNS1123Subdomain(group)) errs.push(invalid(specPath.child('group'), group, e));
  for (const e of isDNS1035Label(version)) errs.push(invalid(specPath.child('version'), version, e));
  const groupPriority = spec.groupPriorityMinimum ?? 0;
  if (groupPriority <= 0 || groupPriority > 20000) {
    errs.push(invalid(specPath.child('groupPriorityMinimum'), groupPriority, 'must be positive and less than 20000'));
  }
  const versionPriority = spec.versionPriority ?? 0;
  if (versionPriority <= 0 || versionPriority > 1000) {
    errs.push(invalid(specPath.child('versionPriority'), versionPriority, 'must be positive and less than 1000'));
  }
  const caBytes = spec.caBundle ? Buffer.from(spec.caBundle, 'base64').length : 0;
  if (!spec.service) {
    if (caBytes > 0) errs.push(invalid(specPath.child('caBundle'), `${caBytes} bytes`, 'local APIServices may not have a caBundle'));
    if (spec.insecureSkipTLSVerify) {
      errs.push(invalid(specPath.child('insecureSkipTLSVerify'), true, 'local APIServices may not have insecureSkipTLSVerify'));
    }
    return errs;
  }
  const service = spec.service;
  if (!service.namespace) errs.push(required(specPath.child('service', 'namespace')));
  if (!service.name) errs.push(required(specPath.child('service', 'name')));
  const port = service.port ?? 443;
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    errs.push(invalid(specPath.child('service', 'port'), port, 'port is not valid: must be between 1 and 65535, inclusive'));
  }
  if (spec.insecureSkipTLSVerify && caBytes > 0) {
    errs.push(invalid(specPath.child('insecureSkipTLSVerify'), true, 'may not be true if caBundle is present'));
  }
  return errs;
}

/** ValidateAPIServiceStatus: every condition's status is True, False or Unknown. */
export function validateAPIServiceStatus(obj: APIService): FieldError[] {
  const errs: FieldError[] = [];
  for (const [i, c] of (obj.status?.conditions ?? []).entries()) {
    if (!CONDITION_STATUSES.includes(c.status)) {
      errs.push(notSupported(fieldPath('status').child('conditions').index(i).child('status'), c.status, CONDITION_STATUSES));
    }
  }
  return errs;
}
