/** The API groups the default policy names, as served under the API domain (Kubernetes' names mapped). */
import type { ApiDomain } from '../../../api/domain.js';

export function policyGroups(domain: ApiDomain) {
  return {
    legacy: '',
    apps: 'apps',
    autoscaling: 'autoscaling',
    batch: 'batch',
    extensions: 'extensions',
    policy: 'policy',
    authentication: domain.group('authentication.k8s.io'),
    authorization: domain.group('authorization.k8s.io'),
    certificates: domain.group('certificates.k8s.io'),
    coordination: domain.group('coordination.k8s.io'),
    discovery: domain.group('discovery.k8s.io'),
    events: domain.group('events.k8s.io'),
    networking: domain.group('networking.k8s.io'),
    node: domain.group('node.k8s.io'),
    rbac: domain.group('rbac.authorization.k8s.io'),
    storage: domain.group('storage.k8s.io'),
    admissionRegistration: domain.group('admissionregistration.k8s.io'),
  };
}

export type PolicyGroups = ReturnType<typeof policyGroups>;
