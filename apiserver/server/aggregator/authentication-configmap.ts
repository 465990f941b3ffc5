/**
 * The `extension-apiserver-authentication` ConfigMap in the system namespace, as kube-apiserver
 * publishes it for extension servers (metrics-server reads it to trust orch's front-proxy identity):
 * the client CA, the request-header CA and header names as JSON lists. With no --requestheader-*
 * flags these are the aggregator's own: the generated front-proxy CA, its client's CN and the
 * header names it sends.
 */
import type { ApiObject } from '../../api/object.js';
import type { IdentityHeaderNames } from '../../frontdoor/identity.js';

export const AUTHENTICATION_CONFIGMAP = 'extension-apiserver-authentication';

export interface AuthenticationFacts {
  clientCA?: string;
  requestHeaderCA: string;
  allowedNames: string[];
  names: IdentityHeaderNames;
}

export function authenticationConfigMap(namespace: string, f: AuthenticationFacts): ApiObject {
  const data: Record<string, string> = {};
  if (f.clientCA) data['client-ca-file'] = f.clientCA;
  data['requestheader-client-ca-file'] = f.requestHeaderCA;
  data['requestheader-allowed-names'] = JSON.stringify(f.allowedNames);
  data['requestheader-username-headers'] = JSON.stringify([f.names.usernameHeader]);
  data['requestheader-group-headers'] = JSON.stringify([f.names.groupHeader]);
  data['requestheader-extra-headers-prefix'] = JSON.stringify([f.names.extraHeaderPrefix]);
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: AUTHENTICATION_CONFIGMAP, namespace }, data };
}
