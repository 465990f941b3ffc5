/**
 * The serviceaccounts/<name>/token subresource (TokenRequest): a bound token for an existing
 * account, meant for the requested audiences (the API's by default), valid expirationSeconds
 * (≥ 600, default 3600, capped by --service-account-max-token-expiration), optionally bound to a Pod
 * or Secret of the same namespace so it dies with it.
 */
import type { ApiObject } from '../api/object.js';
import * as status from '../api/status.js';
import { invalid, notSupported, type FieldError } from '../api/field-errors.js';
import type { ObjectGetter } from './interfaces.js';
import type { ObjectRef } from './service-account-claims.js';
import type { TokenIssuer } from './service-account-issuer.js';

export interface TokenRequestConfig {
  issuer: TokenIssuer;
  getObject: ObjectGetter;
  apiAudiences: readonly string[];
  /** 0 = no maximum. */
  maxExpirationSeconds: number;
  /** The served group of TokenRequest (authentication.orch.io), for error details. */
  group: string;
  now?: () => number;
}

const MIN_EXPIRATION_SECONDS = 600;
const DEFAULT_EXPIRATION_SECONDS = 3600;
const BINDABLE_KINDS = ['Pod', 'Secret'];

/** Answers a TokenRequest for account `name` in `namespace`. */
export function newTokenRequestHandler(config: TokenRequestConfig) {
  const now = config.now ?? Date.now;
  return async (r: { namespace: string; name: string; object: ApiObject }): Promise<ApiObject> => {
    const request = r.object;
    const spec = (request.spec ?? {}) as { audiences?: string[]; expirationSeconds?: number; boundObjectRef?: Record<string, string> };
    const expirationSeconds = spec.expirationSeconds ?? DEFAULT_EXPIRATION_SECONDS;
    const errors: FieldError[] = [];
    if (expirationSeconds < MIN_EXPIRATION_SECONDS) {
      errors.push(invalid('spec.expirationSeconds', expirationSeconds, 'may not specify a duration less than 10 minutes'));
    } else if (expirationSeconds > 2 ** 32) {
      errors.push(invalid('spec.expirationSeconds', expirationSeconds, 'may not specify a duration larger than 2^32 seconds'));
    }
    const ref = spec.boundObjectRef;
    if (ref && !BINDABLE_KINDS.includes(ref.kind)) errors.push(notSupported('spec.boundObjectRef.kind', ref.kind ?? '', BINDABLE_KINDS));
    if (ref && !ref.name) errors.push(invalid('spec.boundObjectRef.name', '', 'must be set'));
    if (errors.length > 0) throw status.invalid({ group: config.group, kind: 'TokenRequest' }, r.name, errors);

    const account = await config.getObject('serviceaccounts', r.namespace, r.name);
    if (!account) throw status.notFound({ group: '', resource: 'serviceaccounts' }, r.name);
    let pod: ObjectRef | undefined;
    let secret: ObjectRef | undefined;
    if (ref) {
      const resource = ref.kind === 'Pod' ? 'pods' : 'secrets';
      const bound = await config.getObject(resource, r.namespace, ref.name);
      if (!bound) throw status.notFound({ group: '', resource }, ref.name);
      const uid = bound.metadata.uid as string;
      if (ref.uid && ref.uid !== uid) {
        throw status.conflict(
          { group: '', resource },
          ref.name,
          `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`,
        );
      }
      if (resource === 'pods' && (bound.spec as { serviceAccountName?: string } | undefined)?.serviceAccountName !== r.name) {
        throw status.badRequest(`cannot bind token for serviceaccount "${r.name}" to pod running with different serviceaccount name.`);
      }
      if (ref.kind === 'Pod') pod = { name: ref.name, uid };
      else secret = { name: ref.name, uid };
    }
    const seconds = config.maxExpirationSeconds > 0 ? Math.min(expirationSeconds, config.maxExpirationSeconds) : expirationSeconds;
    const audiences = spec.audiences && spec.audiences.length > 0 ? spec.audiences : [...config.apiAudiences];
    const issuedAt = Math.floor(now() / 1000);
    const token = config.issuer.bound({
      namespace: r.namespace,
      serviceAccount: { name: r.name, uid: account.metadata.uid as string },
      pod,
      secret,
      audiences,
      issuedAt,
      expiresAt: issuedAt + seconds,
    });
    const boundObjectRef = ref ? { ...ref, uid: (pod ?? secret)!.uid } : undefined;
    return {
      ...request,
      metadata: { ...request.metadata, name: r.name, namespace: r.namespace },
      spec: { audiences, expirationSeconds: seconds, ...(boundObjectRef ? { boundObjectRef } : {}) },
      status: { token, expirationTimestamp: new Date((issuedAt + seconds) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z') },
    };
  };
}
