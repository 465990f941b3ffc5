/**
 * The params a binding gives its policy (Kubernetes' collectParams): none asked (no paramKind or no
 * paramRef) is one evaluation without params; otherwise the object paramRef names, or every object its
 * selector matches, in paramRef.namespace or the request's namespace for a namespaced kind, read from
 * the watch cache. None found is no evaluation at all, or with parameterNotFoundAction Deny an error.
 * Errors are a binding's configuration errors, worded as Kubernetes words them.
 */
import type { ApiObject } from '../../api/object.js';
import type { ParamKind, ParamRef } from '../../registry/admissionregistration/policy-types.js';
import { labelSelectorFromObject } from '../../runtime/selectors/label-selector.js';
import type { PluginEnv } from '../interfaces.js';

/** Go's String() of a ParamKind, as Kubernetes prints it in its error. */
const paramKindString = (k: ParamKind) => `&ParamKind{APIVersion:${k.apiVersion ?? ''},Kind:${k.kind ?? ''},}`;

export async function collectParams(
  env: Pick<PluginEnv, 'reader' | 'resourcesOfKind'>,
  paramKind: ParamKind | undefined,
  paramRef: ParamRef | undefined,
  namespace: string,
): Promise<(ApiObject | null)[] | Error> {
  if (!paramKind || !paramRef) return [null];
  const apiVersion = paramKind.apiVersion ?? '';
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/', 2) : ['', apiVersion];
  const def = env.resourcesOfKind(group, paramKind.kind ?? '').find((d) => d.version === version);
  if (!def) return new Error(`paramKind kind \`${paramKindString(paramKind)}\` not known`);
  let ns = '';
  if (def.namespaced) {
    ns = paramRef.namespace || namespace;
    if (!ns) return new Error('cannot use namespaced paramRef in policy binding that matches cluster-scoped resources');
  } else if (paramRef.namespace) return new Error('paramRef.namespace must not be provided for a cluster-scoped `paramKind`');
  const resource = { group: def.kubernetesGroup, resource: def.plural };
  let params: ApiObject[];
  if (paramRef.name) {
    if (paramRef.selector) return new Error('paramRef.name and paramRef.selector are mutually exclusive');
    const found = await env.reader.get(resource, ns, paramRef.name, { cached: true });
    params = found ? [found] : [];
  } else if (paramRef.selector) {
    const selector = labelSelectorFromObject(paramRef.selector);
    params = (await env.reader.list(resource, ns, { cached: true })).filter((p) => selector.matches(p.metadata.labels ?? {}));
  } else return new Error('one of name or selector must be provided');
  if (params.length === 0 && paramRef.parameterNotFoundAction === 'Deny')
    return new Error('no params found for policy binding with `Deny` parameterNotFoundAction');
  return params.map((p) => ({ ...p, apiVersion: apiVersion, kind: paramKind.kind ?? '' }));
}
