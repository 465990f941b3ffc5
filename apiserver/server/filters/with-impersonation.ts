import type { IncomingMessage } from 'node:http';
import type { ApiDomain } from '../../api/domain.js';
import * as status from '../../api/status.js';
import { ALL_AUTHENTICATED_GROUP, ALL_UNAUTHENTICATED_GROUP, ANONYMOUS_USER, type UserInfo } from '../../authentication/interfaces.js';
import { ALL_SERVICE_ACCOUNTS_GROUP, splitServiceAccountUsername } from '../../authentication/service-account-claims.js';
import type { Attributes, Authorizer } from '../../authorization/interfaces.js';
import { setUser, userFrom } from '../../endpoints/request/request-user.js';
import { requestInfoFrom } from '../../endpoints/request/request-info.js';
import type { Handler } from './handler.js';

const USER = 'impersonate-user';
const GROUP = 'impersonate-group';
const UID = 'impersonate-uid';
const EXTRA = 'impersonate-extra-';
const PREFIX = 'impersonate-';

/**
 * Impersonate-User / -Group / -Uid / -Extra-<key>: the authenticated user must be allowed the verb
 * `impersonate` on each value (users or serviceaccounts, groups, uids and userextras/<key> of the
 * authentication group, the value as resource name); the request then continues as the impersonated
 * user, with the headers removed. A user name is a service account only when it is one exactly
 * (`system:serviceaccount:<namespace>:<name>`, both valid names: Kubernetes' SplitUsername); any
 * other name, `system:serviceaccount:team:nobody:system:masters` too, is a plain user, checked on
 * `users` with the whole name. A group, uid or extra without a user is a 400, and so is a second
 * Impersonate-User or Impersonate-Uid header: Node joins repeated headers into one value ("a, b"),
 * which would be checked and used as a name nobody sent (Kubernetes reads the first and ignores the
 * others; refusing leaves no doubt which one counts). An empty Impersonate-User or Impersonate-Uid
 * is as if it were not sent. As in Kubernetes (1.28 impersonation.go), groups given are the
 * impersonated user's groups: a service account gets system:serviceaccounts and
 * system:serviceaccounts:<namespace> only when no Impersonate-Group came; system:authenticated is
 * added to a user other than system:anonymous unless the groups hold it or system:unauthenticated,
 * and system:unauthenticated to system:anonymous unless they hold it. A request without
 * Impersonate-* headers passes straight through.
 */
export function withImpersonation(handler: Handler, authorizer: Authorizer, domain: ApiDomain): Handler {
  const authGroup = domain.group('authentication.k8s.io');
  const impersonate = async (req: IncomingMessage) => {
    const username = single(req, USER);
    const groups = values(req, GROUP);
    const uid = single(req, UID);
    const extra: Record<string, string[]> = {};
    for (const header of Object.keys(req.headers)) {
      if (!header.startsWith(EXTRA)) continue;
      let key: string;
      try {
        key = decodeURIComponent(header.slice(EXTRA.length)).toLowerCase();
      } catch {
        throw status.badRequest(`invalid impersonation extra header ${JSON.stringify(header)}: bad percent-encoding`);
      }
      extra[key] = [...(extra[key] ?? []), ...values(req, header)];
    }
    if (username === undefined) {
      if (groups.length > 0 || uid !== undefined || Object.keys(extra).length > 0) {
        throw status.badRequest('impersonating groups, a uid or extra fields requires impersonating a user (Impersonate-User)');
      }
      return;
    }

    const requester = userFrom(req);
    const checks: Omit<Attributes, 'user' | 'verb' | 'resourceRequest' | 'apiVersion' | 'path'>[] = [];
    const none = { subresource: '', namespace: '' };
    const serviceAccount = splitServiceAccountUsername(username);
    if (serviceAccount) {
      checks.push({
        apiGroup: '',
        resource: 'serviceaccounts',
        subresource: '',
        namespace: serviceAccount.namespace,
        name: serviceAccount.name,
      });
    } else {
      checks.push({ ...none, apiGroup: '', resource: 'users', name: username });
    }
    for (const g of groups) checks.push({ ...none, apiGroup: '', resource: 'groups', name: g });
    if (uid !== undefined) checks.push({ ...none, apiGroup: authGroup, resource: 'uids', name: uid });
    for (const [key, vals] of Object.entries(extra)) {
      for (const v of vals) checks.push({ apiGroup: authGroup, resource: 'userextras', subresource: key, namespace: '', name: v });
    }
    for (const check of checks) {
      const { decision, reason } = await authorizer.authorize({
        ...check,
        user: requester,
        verb: 'impersonate',
        resourceRequest: true,
        apiVersion: '',
        path: requestInfoFrom(req).path,
      });
      if (decision === 'Allow') continue;
      const resource = check.subresource ? `${check.resource}/${check.subresource}` : check.resource;
      const scope = check.namespace ? ` in the namespace "${check.namespace}"` : ' at the cluster scope';
      throw status.forbidden(
        { group: check.apiGroup, resource: check.resource },
        check.name,
        `User "${requester.name}" cannot impersonate resource "${resource}" in API group "${check.apiGroup}"${scope}${reason ? `: ${reason}` : ''}`,
      );
    }

    const impersonated: UserInfo = { name: username, groups: [...groups] };
    if (uid !== undefined) impersonated.uid = uid;
    if (Object.keys(extra).length > 0) impersonated.extra = extra;
    // Groups given are the whole list: a service account gets its fixed groups only when none are.
    if (serviceAccount && groups.length === 0) {
      impersonated.groups.push(ALL_SERVICE_ACCOUNTS_GROUP, `${ALL_SERVICE_ACCOUNTS_GROUP}:${serviceAccount.namespace}`);
    }
    const has = (g: string) => impersonated.groups.includes(g);
    if (username === ANONYMOUS_USER) {
      if (!has(ALL_UNAUTHENTICATED_GROUP)) impersonated.groups.push(ALL_UNAUTHENTICATED_GROUP);
    } else if (!has(ALL_AUTHENTICATED_GROUP) && !has(ALL_UNAUTHENTICATED_GROUP)) {
      impersonated.groups.push(ALL_AUTHENTICATED_GROUP);
    }
    for (const header of Object.keys(req.headers)) if (header.startsWith(PREFIX)) delete req.headers[header];
    setUser(req, impersonated);
  };
  return (req, res) => (asksImpersonation(req) ? impersonate(req).then(() => handler(req, res)) : handler(req, res));
}

/** Whether any Impersonate-* header came: a scan of the raw header names (a for-in over req.headers cost ≈2 µs). */
function asksImpersonation(req: IncomingMessage): boolean {
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i];
    if ((name.charCodeAt(0) | 0x20) === 0x69 && name.length > PREFIX.length && name.slice(0, PREFIX.length).toLowerCase() === PREFIX)
      return true;
  }
  return false;
}

/** Every value of a header sent once per value (as Kubernetes clients do; values may hold commas). */
function values(req: IncomingMessage, header: string): string[] {
  return req.headersDistinct[header] ?? [];
}

/**
 * The one value of a header that may come once; a second one is a 400 (req.headers would join them
 * with ", "). An empty value is no value, as in Kubernetes (`len(headers.Get(...)) > 0`).
 */
function single(req: IncomingMessage, header: string): string | undefined {
  const all = req.headersDistinct[header];
  if (all === undefined || all.length === 0) return undefined;
  if (all.length > 1) throw status.badRequest(`only one ${HEADER_NAMES[header] ?? header} header may be sent, got ${all.length}`);
  return all[0] === '' ? undefined : all[0];
}

const HEADER_NAMES: Record<string, string> = { [USER]: 'Impersonate-User', [UID]: 'Impersonate-Uid' };
