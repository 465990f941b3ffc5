/**
 * A webhook's clientConfig (k8s.io/apiserver/pkg/util/webhook ValidateWebhookURL / ValidateWebhookService):
 * exactly one of url (https, with a host, no user info, query or fragment) and service (name and
 * namespace, a valid port, a path of DNS-1123 subdomain segments).
 */
import type { FieldError, FieldPath } from '../../api/field-errors.js';
import { goQuote, invalid, required } from '../../api/field-errors.js';
import { isDNS1123Subdomain } from '../../api/validation/names.js';
import type { ServiceReference, WebhookClientConfig } from './types.js';

const URL_FORM = '; desired format: https://host[/path]';

interface ParsedURL {
  scheme: string;
  user?: string;
  host: string;
  rawQuery: string;
  fragment: string;
}

/** The parts of a URL as Go's url.Parse splits them; a string for the errors it reports. */
function parseURL(raw: string): ParsedURL | string {
  const fail = (why: string) => `parse ${goQuote(raw)}: ${why}`;
  if (/[\x00-\x1f\x7f]/.test(raw)) return fail('net/url: invalid control character in URL');
  let rest = raw;
  let fragment = '';
  const hash = rest.indexOf('#');
  if (hash >= 0) {
    fragment = rest.slice(hash + 1);
    rest = rest.slice(0, hash);
  }
  let scheme = '';
  const s = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(rest);
  if (s) {
    scheme = s[1].toLowerCase();
    rest = rest.slice(s[0].length);
  } else if (rest.startsWith(':')) return fail('missing protocol scheme');
  let rawQuery = '';
  const q = rest.indexOf('?');
  if (q >= 0) {
    rawQuery = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  if (!rest.startsWith('//')) return { scheme, host: '', rawQuery, fragment };
  const authority = rest.slice(2).split('/')[0];
  const at = authority.lastIndexOf('@');
  const host = at >= 0 ? authority.slice(at + 1) : authority;
  const port = /:([^\]]*)$/.exec(host);
  if (port && !/^\d*$/.test(port[1])) return fail(`invalid port ${goQuote(port[0])} after host`);
  return { scheme, user: at >= 0 ? authority.slice(0, at) : undefined, host, rawQuery, fragment };
}

export function validateWebhookURL(path: FieldPath, raw: string): FieldError[] {
  const u = parseURL(raw);
  if (typeof u === 'string') return [required(path, `url must be a valid URL: ${u}${URL_FORM}`)];
  const errors: FieldError[] = [];
  if (u.scheme !== 'https') errors.push(invalid(path, u.scheme, `'https' is the only allowed URL scheme${URL_FORM}`));
  if (!u.host) errors.push(invalid(path, u.host, `host must be provided${URL_FORM}`));
  if (u.user !== undefined) errors.push(invalid(path, u.user, 'user information is not permitted in the URL'));
  if (u.fragment) errors.push(invalid(path, u.fragment, 'fragments are not permitted in the URL'));
  if (u.rawQuery) errors.push(invalid(path, u.rawQuery, 'query parameters are not permitted in the URL'));
  return errors;
}

export function validateWebhookService(path: FieldPath, service: ServiceReference): FieldError[] {
  const errors: FieldError[] = [];
  if (!service.name) errors.push(required(path.child('name'), 'service name is required'));
  if (!service.namespace) errors.push(required(path.child('namespace'), 'service namespace is required'));
  const port = service.port ?? 0;
  if (port < 1 || port > 65535) errors.push(invalid(path.child('port'), port, 'port is not valid: must be between 1 and 65535, inclusive'));
  const urlPath = service.path;
  if (urlPath === undefined || urlPath === '' || urlPath === '/') return errors;
  const pathField = path.child('path');
  if (urlPath === '//') return [...errors, invalid(pathField, urlPath, 'segment[0] may not be empty')];
  if (!urlPath.startsWith('/')) errors.push(invalid(pathField, urlPath, "must start with a '/'"));
  let toCheck = urlPath.slice(1);
  if (toCheck.endsWith('/')) toCheck = toCheck.slice(0, -1);
  toCheck.split('/').forEach((step, i) => {
    if (!step) {
      errors.push(invalid(pathField, urlPath, `segment[${i}] may not be empty`));
      return;
    }
    for (const msg of isDNS1123Subdomain(step)) errors.push(invalid(pathField, urlPath, `segment[${i}]: ${msg}`));
  });
  return errors;
}

/** Exactly one of url and service, each valid. */
export function validateClientConfig(config: WebhookClientConfig | undefined, path: FieldPath): FieldError[] {
  const cc = config ?? {};
  if ((cc.url === undefined) === (cc.service === undefined)) return [required(path, 'exactly one of url or service is required')];
  return cc.url !== undefined ? validateWebhookURL(path.child('url'), cc.url) : validateWebhookService(path.child('service'), cc.service!);
}
