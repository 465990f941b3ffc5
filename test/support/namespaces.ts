/** The one way tests create a namespace: fails the test with the server's answer unless it is 201. */
import assert from 'node:assert/strict';
import type { TestClient } from './http-client.js';

export async function createNamespace(c: TestClient, name: string): Promise<Record<string, any>> {
  const r = await c.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  assert.equal(r.status, 201, `create namespace ${name}: ${r.text}`);
  return r.body;
}
