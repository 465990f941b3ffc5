/**
 * ValidateSignerName: `<fully qualified domain>/<path>`, the domain of DNS-1123 labels with at least two
 * of them, the path of DNS-1123 subdomains separated by dots, at most 571 characters in all.
 */
import type { FieldError, FieldPath } from '../../api/field-errors.js';
import { goQuote, invalid, required, tooLong } from '../../api/field-errors.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../api/validation/names.js';

const DNS1123_SUBDOMAIN_MAX = 253;
const DNS1123_LABEL_MAX = 63;
const MAX_SIGNER_NAME = DNS1123_SUBDOMAIN_MAX + (DNS1123_SUBDOMAIN_MAX + DNS1123_LABEL_MAX + 1) + 1;

/** The first label failing `check`, reported against the whole segment (further ones would repeat it). */
function firstBadLabel(path: FieldPath, segment: string, labels: string[], check: (s: string) => string[]): FieldError[] {
  for (const label of labels) {
    const msgs = check(label);
    if (msgs.length > 0) return msgs.map((msg) => invalid(path, segment, `validating label ${goQuote(label)}: ${msg}`));
  }
  return [];
}

export function validateSignerName(path: FieldPath, signerName: string): FieldError[] {
  if (!signerName) return [required(path)];
  const segments = signerName.split('/');
  if (segments.length !== 2)
    return [invalid(path, signerName, "must be a fully qualified domain and path of the form 'example.com/signer-name'")];
  const [domain, rest] = segments;
  const errors: FieldError[] = [];
  if (domain.length > DNS1123_SUBDOMAIN_MAX) errors.push(tooLong(path, '', DNS1123_SUBDOMAIN_MAX));
  const domainLabels = domain.split('.');
  errors.push(...firstBadLabel(path, domain, domainLabels, isDNS1123Label));
  if (domainLabels.length < 2) errors.push(invalid(path, domain, 'should be a domain with at least two segments separated by dots'));
  errors.push(...firstBadLabel(path, rest, rest.split('.'), isDNS1123Subdomain));
  if (signerName.length > MAX_SIGNER_NAME) errors.push(tooLong(path, '', MAX_SIGNER_NAME));
  return errors;
}
