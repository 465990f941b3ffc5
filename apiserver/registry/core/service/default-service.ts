/**
 * The API server's own Service in `default`, kept like Kubernetes' bootstrap controller keeps the
 * `kubernetes` Service: named by the domain (`orch` for orch.io, `kubernetes` for k8s.io — the same
 * word the domain uses for its namespace finalizer), ClusterIP type on the first address of the
 * primary service range, port 443 named https targeting the server's secure port.
 */
import type { ApiDomain } from '../../../api/domain.js';
import type { ApiObject } from '../../../api/object.js';
import { asKind, jsonEqual } from '../../../api/object.js';
import type { Service } from '../../../api/generated/types.js';
import * as status from '../../../api/status.js';
import type { UserInfo } from '../../../api/user-info.js';
import type { GenericStore } from '../../generic/store.js';
import type { RequestContext } from '../../generic/request-context.js';
import { type ServicePort, specOf } from './service-spec.js';

/** The name of the API server's own Service. */
function defaultServiceName(domain: ApiDomain): string {
  return domain.namespaceFinalizer;
}

/**
 * Creates the Service when missing and corrects its ports when the secure port changed. Safe to run
 * from several replicas at once: whoever loses the race finds the winner's Service.
 */
export async function ensureDefaultService(
  services: GenericStore,
  domain: ApiDomain,
  clusterIP: string,
  securePort: number,
  user: UserInfo,
): Promise<void> {
  const name = defaultServiceName(domain);
  const ctx = (): RequestContext => ({ namespace: 'default', user, dryRun: false, now: new Date() });
  const ports: ServicePort[] = [{ name: 'https', port: 443, protocol: 'TCP', targetPort: securePort }];
  const wanted: ApiObject = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: 'default', labels: { provider: name, component: 'apiserver' } },
    spec: { type: 'ClusterIP', clusterIP, ports, sessionAffinity: 'None' },
  };
  const current = await services.get(ctx(), name).catch((err: unknown) => {
    if (status.isApiError(err, 'NotFound')) return null;
    throw err;
  });
  if (!current) {
    try {
      await services.create(ctx(), wanted);
      return;
    } catch (err) {
      // Another replica created it (and took its address) first.
      if (!status.isApiError(err, 'AlreadyExists') && !status.isApiError(err, 'Invalid')) throw err;
      if (!(await services.get(ctx(), name).catch(() => null))) throw err;
      return;
    }
  }
  const spec = specOf(asKind<Service>(current));
  if (
    jsonEqual(
      spec.ports?.map(({ nodePort: _n, ...p }) => p),
      ports,
    )
  )
    return;
  await services.update(ctx(), name, (old) => ({ ...old!, spec: { ...specOf(asKind<Service>(old!)), ports } }));
}
