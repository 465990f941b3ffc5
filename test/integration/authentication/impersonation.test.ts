/**
 * Impersonation over HTTPS: system:masters may impersonate anyone (the impersonated user is what
 * the request then runs as); others are refused with 403 naming the check; groups without a user
 * are 400; kubectl --as/--as-group works.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { ensureCA, newClientCert } from '../../../apiserver/component-base/certs/certs.js';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { newTestClient, type TestClient } from '../../support/http-client.js';
import { newKubectl } from '../../support/kubectl.js';

const WHOAMI = '/apis/authentication.orch.io/v1/selfsubjectreviews';
const review = { apiVersion: 'authentication.orch.io/v1', kind: 'SelfSubjectReview' };

describe('impersonation', () => {
  let s: TestServer;
  let plain: TestClient;
  before(async () => {
    // AlwaysDeny: only system:masters is allowed anything, impersonation included.
    const dir = mkdtempSync(join(tmpdir(), 'orch-impersonation-'));
    const ca = ensureCA(dir);
    const pair = newClientCert(ca, { cn: 'eve', orgs: ['staff'] });
    s = await startTestServer({ args: ['--authorization-mode=AlwaysDeny', `--client-ca-file=${ca.certFile}`] });
    plain = newTestClient({ url: s.url, ca: s.ca, cert: pair.certPem, key: pair.keyPem });
  });
  after(async () => {
    plain.close();
    await s.stop();
  });

  it('an allowed requester becomes the impersonated user, groups, uid and extra', async () => {
    const r = await s.client.request('POST', WHOAMI, {
      body: review,
      // system:masters, so that AlwaysDeny lets the impersonated user ask.
      headers: {
        'Impersonate-User': 'jane',
        'Impersonate-Group': 'system:masters',
        'Impersonate-Uid': 'u-1',
        'Impersonate-Extra-Scopes%2FReason': 'audit',
      },
    });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.body.status.userInfo, {
      username: 'jane',
      uid: 'u-1',
      groups: ['system:masters', 'system:authenticated'],
      extra: { 'scopes/reason': ['audit'] },
    });
    const sa = await s.client.request('POST', WHOAMI, {
      body: review,
      headers: { 'Impersonate-User': 'system:serviceaccount:ns1:bot', 'Impersonate-Group': 'system:masters' },
    });
    // Groups given are the whole list: Kubernetes adds the service-account groups only when none are
    // (the unit test has that case; here AlwaysDeny would refuse the account without system:masters).
    assert.deepEqual(sa.body.status.userInfo.groups, ['system:masters', 'system:authenticated']);
    // The impersonated user is then authorized: jane is not in system:masters.
    const denied = await s.client.request('GET', '/api/v1/secrets', { headers: { 'Impersonate-User': 'jane' } });
    assert.equal(denied.status, 403);
    assert.match(denied.body.message, /User "jane" cannot list resource "secrets"/);
  });

  it('a requester without the impersonate permission gets 403 naming the check', async () => {
    const r = await plain.request('GET', '/api/v1/namespaces', {
      headers: { 'Impersonate-User': 'admin', 'Impersonate-Group': 'system:masters' },
    });
    assert.equal(r.status, 403);
    assert.equal(
      r.body.message,
      'users "admin" is forbidden: User "eve" cannot impersonate resource "users" in API group "" at the cluster scope: Everything is forbidden.',
    );
    const sa = await plain.request('GET', '/api/v1/namespaces', { headers: { 'Impersonate-User': 'system:serviceaccount:kube:x' } });
    assert.match(sa.body.message, /cannot impersonate resource "serviceaccounts" in API group "" in the namespace "kube"/);
  });

  it('groups, uid or extra without a user are 400', async () => {
    const cases: Record<string, string>[] = [
      { 'Impersonate-Group': 'system:masters' },
      { 'Impersonate-Uid': 'x' },
      { 'Impersonate-Extra-a': 'b' },
    ];
    for (const headers of cases) {
      const r = await s.client.request('GET', '/api/v1/namespaces', { headers });
      assert.equal(r.status, 400, JSON.stringify(headers));
      assert.equal(r.body.reason, 'BadRequest');
    }
  });

  it('kubectl --as and --as-group', async () => {
    const kubectl = newKubectl(s.kubeconfig);
    await kubectl.ok(['create', 'configmap', 'made-by-jane', '--as=jane', '--as-group=system:masters']);
    const out = await kubectl.run(['get', 'configmaps', '--as=jane', '--as-group=devs']);
    assert.notEqual(out.code, 0);
    assert.match(out.stderr, /Forbidden/);
  });
});
