/**
 * The service-account token controller against a real orch-apiserver: token Secrets are filled with a
 * legacy JWT (Kubernetes' claims, signed by the given key), ca.crt and namespace; they go with their
 * account, and a token Secret naming no account (or an older one of the same name) is deleted.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jwt from 'jsonwebtoken';
import { parseSigningKey } from '../../../apiserver/api/serviceaccount/signing-key.js';
import { TokensController } from '../../../controllers/serviceaccount/tokens-controller.js';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { newTestControllerContext } from '../../support/controller-context.js';
import { eventually } from '../../support/eventually.js';
import { newTestClient } from '../../support/http-client.js';

const NS = '/api/v1/namespaces/default';
const TYPE = 'orch.io/service-account-token';

describe('serviceaccount-token-controller', () => {
  let srv: TestServer;
  let keyDir: string;
  let stop: () => Promise<void>;
  const abort = new AbortController();
  let running: Promise<void>;
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const signingKey = parseSigningKey(privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, 'test key');

  before(async () => {
    keyDir = await mkdtemp(join(tmpdir(), 'orch-sa-key-'));
    const publicKeyFile = join(keyDir, 'sa.pub');
    await writeFile(publicKeyFile, createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }));
    srv = await startTestServer({ args: [`--service-account-key-file=${publicKeyFile}`] });
    const ctx = newTestControllerContext(srv.kubeconfig);
    const controller = new TokensController(ctx, { signingKey, rootCaPem: srv.ca });
    stop = ctx.start();
    running = controller.run(abort.signal);
  });
  after(async () => {
    abort.abort();
    await running;
    await stop?.();
    await srv?.stop();
    await rm(keyDir, { recursive: true, force: true });
  });

  const create = async (path: string, body: unknown) => {
    const r = await srv.client.post(path, body);
    assert.equal(r.status, 201, r.text);
    return r.body;
  };
  const tokenSecret = (name: string, account: string) => ({
    metadata: { name, annotations: { 'orch.io/service-account.name': account } },
    type: TYPE,
  });
  const gone = (path: string) => eventually(`${path} deleted`, async () => (await srv.client.get(path)).status === 404);

  it("fills a token Secret with a legacy token of Kubernetes' claims, ca.crt and namespace", async () => {
    const sa = await create(`${NS}/serviceaccounts`, { metadata: { name: 'builder' } });
    await create(`${NS}/secrets`, tokenSecret('builder-token', 'builder'));
    const secret = await eventually('the token', async () => {
      const s = (await srv.client.get(`${NS}/secrets/builder-token`)).body;
      return s.data?.token ? s : undefined;
    });
    const text = (k: string) => Buffer.from(secret.data[k], 'base64').toString();
    assert.equal(text('ca.crt'), srv.ca);
    assert.equal(text('namespace'), 'default');
    assert.equal(secret.metadata.annotations['orch.io/service-account.uid'], sa.metadata.uid);
    const token = text('token');
    const decoded = jwt.verify(token, createPublicKey(privateKey), { algorithms: ['ES256'], complete: true });
    assert.deepEqual(decoded.header, { alg: 'ES256', typ: 'JWT', kid: signingKey.kid });
    assert.deepEqual(decoded.payload, {
      iss: 'kubernetes/serviceaccount',
      'kubernetes.io/serviceaccount/namespace': 'default',
      'kubernetes.io/serviceaccount/secret.name': 'builder-token',
      'kubernetes.io/serviceaccount/service-account.name': 'builder',
      'kubernetes.io/serviceaccount/service-account.uid': sa.metadata.uid,
      sub: 'system:serviceaccount:default:builder',
    });
    // The API server (--service-account-key-file) takes the token as the account.
    const asBuilder = newTestClient({ url: srv.url, ca: srv.ca, token });
    try {
      const review = await asBuilder.post('/apis/authentication.orch.io/v1/selfsubjectreviews', {
        apiVersion: 'authentication.orch.io/v1',
        kind: 'SelfSubjectReview',
      });
      assert.equal(review.status, 201, review.text);
      assert.equal(review.body.status.userInfo.username, 'system:serviceaccount:default:builder');
      assert.equal(review.body.status.userInfo.uid, sa.metadata.uid);
      // Its use is tracked on the Secret, by the day (LegacyServiceAccountTokenTracking).
      const today = new Date().toISOString().slice(0, 10);
      const labelled = await eventually('the last-used label', async () => {
        const s = (await srv.client.get(`${NS}/secrets/builder-token`)).body;
        return s.metadata.labels?.['orch.io/legacy-token-last-used'] && s;
      });
      assert.ok(
        [today, new Date(Date.now() - 60_000).toISOString().slice(0, 10)].includes(
          labelled.metadata.labels['orch.io/legacy-token-last-used'],
        ),
      );
      const rv = labelled.metadata.resourceVersion;
      const again = await asBuilder.post('/apis/authentication.orch.io/v1/selfsubjectreviews', {
        apiVersion: 'authentication.orch.io/v1',
        kind: 'SelfSubjectReview',
      });
      assert.equal(again.status, 201, again.text);
      assert.equal((await srv.client.get(`${NS}/secrets/builder-token`)).body.metadata.resourceVersion, rv, 'written at most once a day');
    } finally {
      asBuilder.close();
    }
  });

  it('deletes the tokens of a deleted account', async () => {
    await create(`${NS}/serviceaccounts`, { metadata: { name: 'short-lived' } });
    await create(`${NS}/secrets`, tokenSecret('short-lived-token', 'short-lived'));
    await create(`${NS}/secrets`, { metadata: { name: 'unrelated' }, stringData: { a: 'b' } });
    await eventually('the token', async () => !!(await srv.client.get(`${NS}/secrets/short-lived-token`)).body.data?.token);
    assert.equal((await srv.client.delete(`${NS}/serviceaccounts/short-lived`)).status, 200);
    await gone(`${NS}/secrets/short-lived-token`);
    assert.equal((await srv.client.get(`${NS}/secrets/unrelated`)).status, 200);
  });

  it('deletes a token Secret whose account does not exist, or is a newer one of that name', async () => {
    await create(`${NS}/secrets`, tokenSecret('orphan-token', 'nobody'));
    await gone(`${NS}/secrets/orphan-token`);
    await create(`${NS}/serviceaccounts`, { metadata: { name: 'reborn' } });
    await create(`${NS}/secrets`, tokenSecret('reborn-token', 'reborn'));
    const old = tokenSecret('reborn-old-token', 'reborn');
    await create(`${NS}/secrets`, {
      ...old,
      metadata: { ...old.metadata, annotations: { ...old.metadata.annotations, 'orch.io/service-account.uid': 'an-older-uid' } },
    });
    await gone(`${NS}/secrets/reborn-old-token`);
    assert.equal((await srv.client.get(`${NS}/secrets/reborn-token`)).status, 200);
  });

  it("takes a deleted token Secret out of its account's secrets", async () => {
    await create(`${NS}/serviceaccounts`, { metadata: { name: 'listed' }, secrets: [{ name: 'listed-token' }, { name: 'other' }] });
    await create(`${NS}/secrets`, tokenSecret('listed-token', 'listed'));
    await eventually('the token', async () => !!(await srv.client.get(`${NS}/secrets/listed-token`)).body.data?.token);
    assert.equal((await srv.client.delete(`${NS}/secrets/listed-token`)).status, 200);
    await eventually('the reference dropped', async () => {
      const sa = (await srv.client.get(`${NS}/serviceaccounts/listed`)).body;
      return JSON.stringify(sa.secrets) === JSON.stringify([{ name: 'other' }]);
    });
  });
});
