/**
 * The RBAC bindings a cluster installer (kubeadm) makes for node TLS bootstrapping, on a real server
 * under --authorization-mode=...RBAC: bootstrappers may create CSRs and have node client requests
 * auto-approved (nodeclient), nodes have their renewals approved (selfnodeclient), and bootstrappers
 * may read cluster-info in the public namespace. The roles themselves are the server's defaults.
 */
import assert from 'node:assert/strict';
import { newApiDomain } from '../../apiserver/api/domain.js';
import type { TestClient } from './http-client.js';

export async function bindNodeBootstrapRoles(admin: TestClient, apiDomain = 'orch.io'): Promise<void> {
  const d = newApiDomain(apiDomain);
  const rbacGroup = d.group('rbac.authorization.k8s.io');
  const rbac = `/apis/${rbacGroup}/v1`;
  const certificates = d.group('certificates.k8s.io');
  const bind = async (name: string, role: string, group: string) => {
    const r = await admin.post(`${rbac}/clusterrolebindings`, {
      metadata: { name },
      roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name: role },
      subjects: [{ apiGroup: rbacGroup, kind: 'Group', name: group }],
    });
    assert.equal(r.status, 201, r.text);
  };
  await bind('test:node-bootstrapper', 'system:node-bootstrapper', 'system:bootstrappers');
  await bind('test:node-autoapprove-bootstrap', `system:${certificates}:certificatesigningrequests:nodeclient`, 'system:bootstrappers');
  await bind(
    'test:node-autoapprove-certificate-rotation',
    `system:${certificates}:certificatesigningrequests:selfnodeclient`,
    'system:nodes',
  );
  const publicNs = `${rbac}/namespaces/${d.publicNamespace}`;
  const role = await admin.post(`${publicNs}/roles`, {
    metadata: { name: 'test:bootstrap-signer-clusterinfo' },
    rules: [{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['cluster-info'], verbs: ['get'] }],
  });
  assert.equal(role.status, 201, role.text);
  const binding = await admin.post(`${publicNs}/rolebindings`, {
    metadata: { name: 'test:bootstrap-signer-clusterinfo' },
    roleRef: { apiGroup: rbacGroup, kind: 'Role', name: 'test:bootstrap-signer-clusterinfo' },
    subjects: [{ apiGroup: rbacGroup, kind: 'Group', name: 'system:bootstrappers' }],
  });
  assert.equal(binding.status, 201, binding.text);
}
