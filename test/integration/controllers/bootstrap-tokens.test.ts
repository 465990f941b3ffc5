/**
 * The token cleaner and the bootstrap signer against a real orch-apiserver: expired bootstrap token
 * Secrets are deleted (at once, or when they expire); cluster-info in orch-public carries the
 * kubeconfig and one detached HS256 JWS per signing token, removed with its token.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { parse } from 'yaml';
import { BootstrapSigner } from '../../../controllers/bootstrap/bootstrap-signer.js';
import { TokenCleaner } from '../../../controllers/bootstrap/token-cleaner.js';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { newTestControllerContext } from '../../support/controller-context.js';
import { eventually } from '../../support/eventually.js';

const SECRETS = '/api/v1/namespaces/orch-system/secrets';
const CLUSTER_INFO = '/api/v1/namespaces/orch-public/configmaps/cluster-info';
const TYPE = 'bootstrap.orch.io/token';

/** RFC 7515 HS256 verification of a compact JWS. */
function hs256Valid(compact: string, key: string): boolean {
  const [header, payload, signature] = compact.split('.');
  return createHmac('sha256', key).update(`${header}.${payload}`).digest('base64url') === signature;
}

function tokenSecret(id: string, secret: string, data: Record<string, string> = {}, type = TYPE) {
  return {
    metadata: { name: `bootstrap-token-${id}` },
    type,
    stringData: { 'token-id': id, 'token-secret': secret, ...data },
  };
}

describe('bootstrap token controllers', () => {
  let srv: TestServer;
  let stop: () => Promise<void>;
  const abort = new AbortController();
  let running: Promise<unknown>;

  before(async () => {
    srv = await startTestServer();
    const ctx = newTestControllerContext(srv.kubeconfig);
    const cleaner = new TokenCleaner(ctx);
    const signer = new BootstrapSigner(ctx, srv.ca);
    stop = ctx.start();
    running = Promise.all([cleaner.run(abort.signal), signer.run(abort.signal)]);
  });
  after(async () => {
    abort.abort();
    await running;
    await stop?.();
    await srv?.stop();
  });

  const exists = async (path: string) => (await srv.client.get(path)).status === 200;
  const create = async (path: string, body: unknown) => {
    const r = await srv.client.post(path, body);
    assert.equal(r.status, 201, r.text);
  };

  it('token cleaner: deletes expired and unreadable tokens, and others when they expire', async () => {
    const past = new Date(Date.now() - 60_000).toISOString();
    await create(SECRETS, tokenSecret('aaaaaa', '0123456789abcdef', { expiration: past }));
    await create(SECRETS, tokenSecret('bbbbbb', '0123456789abcdef', { expiration: 'tomorrow' }));
    // Expires in 6 s: long enough to be seen alive after the expired ones are gone, even on a loaded machine.
    const soon = Date.now() + 6000;
    await create(SECRETS, tokenSecret('cccccc', '0123456789abcdef', { expiration: new Date(soon).toISOString() }));
    await create(SECRETS, tokenSecret('dddddd', '0123456789abcdef'));
    await create(SECRETS, tokenSecret('eeeeee', '0123456789abcdef', { expiration: past }, 'Opaque'));
    await create('/api/v1/namespaces/default/secrets', tokenSecret('ffffff', '0123456789abcdef', { expiration: past }));
    await eventually(
      'expired tokens deleted',
      async () => !(await exists(`${SECRETS}/bootstrap-token-aaaaaa`)) && !(await exists(`${SECRETS}/bootstrap-token-bbbbbb`)),
    );
    assert.ok(Date.now() < soon, 'the expired tokens took longer to go than the test allows');
    assert.ok(await exists(`${SECRETS}/bootstrap-token-cccccc`), 'not expired yet');
    await eventually('token deleted when it expires', async () => !(await exists(`${SECRETS}/bootstrap-token-cccccc`)));
    assert.ok(Date.now() >= soon - 1000, 'deleted before it expired');
    assert.ok(await exists(`${SECRETS}/bootstrap-token-dddddd`), 'no expiration');
    assert.ok(await exists(`${SECRETS}/bootstrap-token-eeeeee`), 'not a bootstrap token');
    assert.ok(await exists('/api/v1/namespaces/default/secrets/bootstrap-token-ffffff'), 'not in the system namespace');
  });

  it('bootstrap signer: cluster-info holds the kubeconfig and a detached JWS per signing token', async () => {
    const cm = await eventually('cluster-info', async () => {
      const r = await srv.client.get(CLUSTER_INFO);
      return r.status === 200 ? r.body : undefined;
    });
    const kubeconfig = parse(cm.data.kubeconfig);
    assert.equal(kubeconfig.clusters[0].cluster.server, srv.url);
    assert.equal(Buffer.from(kubeconfig.clusters[0].cluster['certificate-authority-data'], 'base64').toString(), srv.ca);

    await create(SECRETS, tokenSecret('abcdef', '0123456789abcdef', { 'usage-bootstrap-signing': 'true' }));
    await create(SECRETS, tokenSecret('ghijkl', 'fedcba9876543210', { 'usage-bootstrap-authentication': 'true' }));
    await create(
      SECRETS,
      tokenSecret('mnopqr', '0123456789abcdef', {
        'usage-bootstrap-signing': 'true',
        expiration: new Date(Date.now() - 1000).toISOString(),
      }),
    );
    const signed = await eventually('a signature', async () => {
      const data = (await srv.client.get(CLUSTER_INFO)).body.data;
      return data['jws-kubeconfig-abcdef'] ? data : undefined;
    });
    assert.deepEqual(Object.keys(signed).sort(), ['jws-kubeconfig-abcdef', 'kubeconfig']);
    // A detached JWS: header..signature over the kubeconfig, keyed by the token secret.
    const [header, empty, signature] = signed['jws-kubeconfig-abcdef'].split('.');
    assert.equal(empty, '');
    assert.deepEqual(JSON.parse(Buffer.from(header, 'base64url').toString()), { alg: 'HS256', kid: 'abcdef' });
    const compact = `${header}.${Buffer.from(signed.kubeconfig).toString('base64url')}.${signature}`;
    assert.ok(hs256Valid(compact, '0123456789abcdef'));
    assert.ok(!hs256Valid(compact, 'fedcba9876543210'));

    assert.equal((await srv.client.delete(`${SECRETS}/bootstrap-token-abcdef`)).status, 200);
    await eventually('the signature removed', async () => !(await srv.client.get(CLUSTER_INFO)).body.data['jws-kubeconfig-abcdef']);
  });

  it('bootstrap signer: a kubeconfig already in cluster-info is kept and signed as it is', async () => {
    const cm = (await srv.client.get(CLUSTER_INFO)).body;
    cm.data.kubeconfig = 'apiVersion: v1\nkind: Config\nclusters: []\n';
    assert.equal((await srv.client.put(CLUSTER_INFO, cm)).status, 200);
    await create(SECRETS, tokenSecret('stuvwx', 'aaaabbbbccccdddd', { 'usage-bootstrap-signing': 'true' }));
    const data = await eventually('a signature', async () => {
      const d = (await srv.client.get(CLUSTER_INFO)).body.data;
      return d['jws-kubeconfig-stuvwx'] ? d : undefined;
    });
    assert.equal(data.kubeconfig, 'apiVersion: v1\nkind: Config\nclusters: []\n');
    const [header, , signature] = data['jws-kubeconfig-stuvwx'].split('.');
    assert.ok(hs256Valid(`${header}.${Buffer.from(data.kubeconfig).toString('base64url')}.${signature}`, 'aaaabbbbccccdddd'));
  });
});
