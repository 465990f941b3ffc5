import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newApiDomain } from '../../../../apiserver/api/domain.js';
import type { Secret } from '../../../../apiserver/api/generated/types.js';
import { isBootstrapTokenSecret, signingToken, tokenExpiration } from '../../../../controllers/bootstrap/bootstrap-tokens.js';

const now = new Date('2026-01-01T00:00:00Z');
const secret = (data: Record<string, string>, over: Partial<Secret['metadata']> = {}, type = 'bootstrap.orch.io/token'): Secret => ({
  metadata: { name: 'bootstrap-token-abcdef', namespace: 'orch-system', ...over },
  type,
  data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
});
const signing = { 'token-id': 'abcdef', 'token-secret': '0123456789abcdef', 'usage-bootstrap-signing': 'true' };

test('bootstrap token Secrets: type and namespace by the API domain', () => {
  assert.ok(isBootstrapTokenSecret(secret({}), newApiDomain()));
  assert.ok(!isBootstrapTokenSecret(secret({}, { namespace: 'default' }), newApiDomain()));
  assert.ok(!isBootstrapTokenSecret(secret({}, {}, 'Opaque'), newApiDomain()));
  assert.ok(isBootstrapTokenSecret(secret({}, { namespace: 'kube-system' }, 'bootstrap.kubernetes.io/token'), newApiDomain('k8s.io')));
});

test('expiration: none, later, past, unreadable (expired)', () => {
  assert.deepEqual(tokenExpiration(secret({}), now), { expired: false, remainingMs: 0 });
  assert.deepEqual(tokenExpiration(secret({ expiration: '2026-01-01T01:00:00Z' }), now), { expired: false, remainingMs: 3_600_000 });
  assert.deepEqual(tokenExpiration(secret({ expiration: '2026-01-01T01:00:00+01:00' }), now), { expired: true, remainingMs: 0 });
  assert.deepEqual(tokenExpiration(secret({ expiration: '2026-01-02' }), now), { expired: true, remainingMs: 0 });
});

test('a token signs cluster-info only named for its id, with a secret, unexpired and with usage-bootstrap-signing=true', () => {
  assert.deepEqual(signingToken(secret(signing), now), { id: 'abcdef', secret: '0123456789abcdef' });
  assert.equal(signingToken(secret(signing, { name: 'bootstrap-token-zzzzzz' }), now), undefined);
  assert.equal(signingToken(secret({ ...signing, 'token-secret': '' }), now), undefined);
  assert.equal(signingToken(secret({ ...signing, 'usage-bootstrap-signing': 'yes' }), now), undefined);
  assert.equal(signingToken(secret({ ...signing, expiration: '2025-12-31T00:00:00Z' }), now), undefined);
});
