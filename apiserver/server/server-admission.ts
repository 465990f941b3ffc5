/**
 * The admission chain: RBAC's escalation check first (as Kubernetes runs it in the RBAC strategies),
 * then the configurable plugins, which read and write other objects through the stores.
 */
import type { ApiDomain } from '../api/domain.js';
import type { ResourceTable } from '../api/resource-table.js';
import type { Schema } from '../api/schema.js';
import type { AdmissionChain } from '../admission/chain.js';
import { newAdmissionFromOptions } from '../admission/new-admission.js';
import { newRbacEscalation } from '../admission/plugins/rbac-escalation.js';
import { type AdmissionAccess, newAdmissionAccess } from './admission-access.js';
import type { LateStores } from './late-stores.js';
import type { Metrics } from './metrics.js';
import type { ServerOptions } from './options.js';
import type { ServerAuthorization } from './server-authorization.js';

export interface ServerAdmission {
  admission: AdmissionChain;
  /** The plugins' reads, writes and watches (closed on shutdown). */
  access: AdmissionAccess;
}

export function newServerAdmission(
  options: ServerOptions,
  domain: ApiDomain,
  table: ResourceTable,
  stores: LateStores,
  authz: ServerAuthorization,
  metrics: Metrics,
  definitions: Record<string, Schema>,
): ServerAdmission {
  const access = newAdmissionAccess(table, domain, stores.get);
  const admission = newAdmissionFromOptions(
    options.admission,
    {
      domain,
      reader: access.reader,
      writer: access.writer,
      authorizer: authz.authorization.authorizer,
      flags: options.admissionFlags,
      watch: access.watch,
      equivalents: access.equivalents,
      metrics: metrics.admission,
      resourcesOfKind: (group, kind) => table.all().filter((d) => d.group === group && d.kind === kind && !d.conversion),
      definitions,
    },
    [newRbacEscalation(authz.rbacGroup, (write) => authz.escalation.refusal(write))],
  );
  return { admission, access };
}
