/** The one way tests create a namespace: fails the test with the server's answer unless it is 201. */
import assert from 'node:assert/strict';
import type { TestClient } from './http-client.js';

export async function createNamespace(c: TestClient, name: string): Promise<Record<string, any>> {
  const r = await c.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  assert.equal(r.status, 201, `create namespace ${name}: ${r.text}`);
  return r.body;
}

/**
 * The namespace's `default` ServiceAccount, as the serviceaccount controller creates it: for tests
 * that create Pods on a server without the controller manager (ServiceAccount admission, on by
 * default, refuses Pods whose account does not exist).
 */
export async function createDefaultServiceAccount(c: TestClient, namespace: string): Promise<void> {
  const r = await c.post(`/api/v1/namespaces/${namespace}/serviceaccounts`, { metadata: { name: 'default' } });
  assert.equal(r.status, 201, `create serviceaccount ${namespace}/default: ${r.text}`);
}
