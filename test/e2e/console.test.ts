/**
 * The web console (issue 29) in a real headless Chromium (Debian's /usr/bin/chromium, driven by
 * playwright-core) against a real orch-apiserver child process and controller manager: a forged token
 * is refused on the page; the admin signs in, the overview's charts gain points while the test writes
 * objects; the API server replicas sharing the store (their identity Leases), one more appearing and
 * going on the open page; a Deployment's page shows a new Pod live (by its watch, no reload) when it is
 * scaled; a ConfigMap's history diff; a
 * user with `view` in one namespace sees that namespace's kinds and no Secrets; a huge selector is a
 * message on the page with the server unaffected. The static files are served unauthenticated with a
 * strict CSP and no cookie; a path outside them is a 404. Screenshots go to test-artifacts/console/.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { request } from 'node:https';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/api-server.js';
import { startProcess, type Proc } from '../support/processes.js';
import { startEtcd } from '../support/etcd.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FeatureGateOptions } from '../../apiserver/component-base/featuregate/orch-features.js';
import { runProxy } from '../../apiserver/frontdoor/run-proxy.js';
import { ensureClusterFiles, ensureFrontProxyFiles, FRONT_PROXY_CN } from '../../scripts/cluster-files.js';
import { seededCertDirArgs } from '../support/test-pki.js';

const CONTROLLER_MANAGER = 'dist/controllers/cmd/controller-manager.js';
const SHOTS = 'test-artifacts/console';
const VIEWER_TOKEN = 'console-viewer-token-0123456789';
const WAIT = { timeout: 15_000 };

describe('the web console in headless Chromium', () => {
  let server: TestServer;
  let manager: Proc;
  let browser: Browser;
  let page: Page;

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    server = await startTestServer({
      process: true,
      args: ['--authorization-mode=RBAC', '--enable-bootstrap-token-auth'],
      tokens: [`${VIEWER_TOKEN},viewer,viewer-uid,""`],
    });
    manager = startProcess(process.execPath, [
      CONTROLLER_MANAGER,
      '--kubeconfig',
      server.kubeconfig,
      '--secure-port=0',
      ...seededCertDirArgs(),
      '--bind-address=127.0.0.1',
      // Elected, so its Lease (the overview's controller-manager leader) exists.
      '--leader-elect=true',
    ]);
    const c = server.client;
    await c.post('/api/v1/namespaces', { metadata: { name: 'team' } });
    await c.post('/api/v1/namespaces/team/configmaps', { metadata: { name: 'team-settings' }, data: { a: '1' } });
    await c.post('/api/v1/namespaces/team/configmaps', { metadata: { name: 'team-old' } });
    await c.delete('/api/v1/namespaces/team/configmaps/team-old');
    await c.post('/api/v1/namespaces/team/secrets', { metadata: { name: 'team-secret' }, stringData: { p: 'x' } });
    const binding = await c.post('/apis/rbac.authorization.orch.io/v1/namespaces/team/rolebindings', {
      metadata: { name: 'viewer-view' },
      roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ apiGroup: 'rbac.authorization.orch.io', kind: 'User', name: 'viewer' }],
    });
    assert.equal(binding.status, 201, binding.text);
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
    page = await (await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1400, height: 1000 } })).newPage();
    await manager.waitFor(/"msg":"started controller".*deployment-controller/, 30_000);
  });
  after(async () => {
    await browser?.close();
    await manager?.stop();
    await server?.stop();
  });

  /** The status of GET `path`, sent byte for byte. */
  const rawStatus = (s: TestServer, path: string) =>
    new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: s.port, path, ca: s.ca, method: 'GET' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });

  const signIn = async (token: string) => {
    await page.goto(`${server.url}/console/`);
    await page.fill('#token', token);
    await page.click('#signin button');
  };

  it('serves its files unauthenticated with a strict CSP and no cookie; other paths are 404', async () => {
    const index = await server.anonymous.get('/console/');
    assert.equal(index.status, 200);
    assert.match(String(index.headers['content-security-policy']), /default-src 'self'.*script-src 'self'.*frame-ancestors 'none'/);
    assert.equal(index.headers['x-content-type-options'], 'nosniff');
    assert.equal(index.headers['set-cookie'], undefined);
    // Sent as written (no URL normalization on the way), so the server sees the dot segments.
    for (const path of [
      '/console/nope.js',
      '/console/../package.json',
      '/console/%2e%2e/package.json',
      '/console/assets/app.js',
      '/console//etc/passwd',
      '/console/../etc/passwd',
      '/console/nonexistent',
      '/console/nonexistent/',
    ])
      assert.equal(await rawStatus(server, path), 404, path);
    // A request line beyond the server's 1 MiB header bound: refused by the HTTP parser, the server unaffected.
    assert.equal(await rawStatus(server, `/console/?q=${'x'.repeat(1_100_000)}`), 431);
    assert.equal((await server.client.get('/readyz')).status, 200);
    assert.equal((await server.anonymous.get('/console/app.js')).status, 200);
  });

  it('a forged token is a clear message on the page', async () => {
    await signIn('forged-token');
    const message = await page.textContent('#signin-error', WAIT);
    assert.match(message ?? '', /did not accept this token \(401 Unauthorized\)/);
    await page.screenshot({ path: `${SHOTS}/signin-refused.png` });
  });

  it('an expired token is refused at sign-in, and one that expires while in use signs the page out, saying why', async () => {
    const c = server.client;
    const bootstrapToken = async (id: string, expiration: string) => {
      const r = await c.post('/api/v1/namespaces/orch-system/secrets', {
        metadata: { name: `bootstrap-token-${id}` },
        type: 'bootstrap.orch.io/token',
        stringData: { 'token-id': id, 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true', expiration },
      });
      assert.equal(r.status, 201, r.text);
      return `${id}.0123456789abcdef`;
    };
    const past = new Date(Date.now() - 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
    await signIn(await bootstrapToken('expird', past));
    assert.match(
      (await page.textContent('#signin-error', WAIT)) ?? '',
      /did not accept this token \(401 Unauthorized\): it is wrong or expired/,
    );
    await page.screenshot({ path: `${SHOTS}/signin-expired.png` });
    // Valid for an hour: signed in; then it expires (its expiration moved to the past) under the open overview.
    await signIn(await bootstrapToken('expire', new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z')));
    await page.waitForSelector('#whoami', WAIT);
    assert.equal(await page.textContent('#whoami'), 'system:bootstrap:expire');
    const expired = await c.patch(
      '/api/v1/namespaces/orch-system/secrets/bootstrap-token-expire',
      { stringData: { expiration: past } },
      'application/merge-patch+json',
    );
    assert.equal(expired.status, 200, expired.text);
    const message = await page.textContent('#signin-error', WAIT);
    assert.match(message ?? '', /no longer accepts this token \(401 Unauthorized\): it expired or was revoked/);
    assert.equal(await page.evaluate("sessionStorage.getItem('orch.token')"), null, 'the token is dropped');
    await page.screenshot({ path: `${SHOTS}/signed-out-expired.png` });
  });

  it('overview: health and charts that move while objects are written', async () => {
    await signIn(server.token);
    await page.waitForSelector('#whoami', WAIT);
    assert.equal(await page.textContent('#whoami'), 'admin');
    await page.waitForSelector('#health-livez h3.ok', WAIT);
    await page.waitForSelector('#health-readyz h3.ok', WAIT);
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i++) await server.client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: `load-${i}` } });
    })();
    // Three samples, five seconds apart: two points in the rate chart.
    await page.waitForSelector('#chart-rate[data-points="3"]', { timeout: 30_000 });
    writing = false;
    await writer;
    // The writes drawn: well over one request a second on the rate chart.
    assert.ok(Number(await page.getAttribute('#chart-rate', 'data-max')) > 5, 'the rate chart shows the writes');
    assert.match((await page.textContent('#object-counts')) ?? '', /configmaps/);
    await page.screenshot({ path: `${SHOTS}/overview.png` });
  });

  it('overview: the storage backend (SQLite file, WAL), the workers and the controller manager leader', async () => {
    await page.goto(`${server.url}/console/#/overview`);
    await page.waitForSelector('#storage-backend', WAIT);
    assert.equal(await page.textContent('#storage-backend'), 'SQLite');
    assert.equal(await page.textContent('#sqlite-file'), `${server.dataDir}/state.db`);
    assert.match((await page.textContent('#sqlite-size')) ?? '', /^[\d.]+ (KiB|MiB)$/);
    assert.match((await page.textContent('#sqlite-wal')) ?? '', /^[\d.]+ (KiB|MiB)$/);
    assert.match((await page.textContent('#workers')) ?? '', /^[1-9]\d*$/);
    // The controller manager's Lease and its holder, as the API has it.
    const lease = await server.client.get('/apis/coordination.orch.io/v1/namespaces/orch-system/leases/orch-controller-manager');
    assert.equal(lease.status, 200, lease.text);
    const row = page.locator('#leaders tr.lease[data-name="orch-controller-manager"] td.holder');
    await row.waitFor(WAIT);
    assert.equal(await row.textContent(), lease.body.spec.holderIdentity);
    // This replica, from its identity Lease: live, and marked as the one answering; not among the leaders.
    const identities = await server.client.get(
      `/apis/coordination.orch.io/v1/namespaces/orch-system/leases?labelSelector=${encodeURIComponent('apiserver.orch.io/identity=orch-apiserver')}`,
    );
    assert.equal(identities.status, 200, identities.text);
    assert.equal(identities.body.items.length, 1);
    const identity = identities.body.items[0];
    const replica = page.locator(`#replicas tr.replica[data-name="${identity.metadata.name}"]`);
    await replica.waitFor(WAIT);
    assert.equal(await replica.getAttribute('data-state'), 'live');
    assert.equal(await replica.getAttribute('data-self'), 'true');
    assert.equal(await replica.locator('td.holder').textContent(), identity.spec.holderIdentity);
    assert.equal(await page.textContent('#replica-count'), '1');
    assert.equal(await page.locator(`#leaders tr.lease[data-name="${identity.metadata.name}"]`).count(), 0);
    await page.screenshot({ path: `${SHOTS}/overview-cluster.png`, fullPage: true });
  });

  it('overview on etcd: its members, leader and db size; a second replica on the store appears and goes', async () => {
    const etcd = await startEtcd();
    const etcdPrefix = '/registry-console-replicas';
    const onEtcd = await startTestServer({ etcd: etcd.endpoint, etcdPrefix });
    let second: TestServer | undefined;
    const tab = await browser.newPage({ ignoreHTTPSErrors: true, viewport: { width: 1400, height: 1000 } });
    try {
      await tab.goto(`${onEtcd.url}/console/`);
      await tab.fill('#token', onEtcd.token);
      await tab.click('#signin button');
      await tab.waitForSelector('#etcd-members tr.etcd-member', WAIT);
      assert.equal(await tab.textContent('#storage-backend'), 'etcd');
      assert.equal(await tab.textContent('#etcd-leader'), 'test');
      const member = tab.locator('#etcd-members tr.etcd-member');
      assert.equal(await member.count(), 1);
      assert.equal(await member.getAttribute('data-leader'), 'true');
      assert.match((await member.textContent()) ?? '', new RegExp(etcd.endpoint.replace(/[.:/]/g, '\\$&')));
      assert.match((await member.locator('td.db-size').textContent()) ?? '', /^[\d.]+ (KiB|MiB)$/);
      await tab.waitForSelector('#replicas tr.replica[data-self="true"][data-state="live"]', WAIT);
      assert.equal(await tab.textContent('#replica-count'), '1');
      // Another replica starts on the same store: it shows up on the open page, live, not the one answering.
      second = await startTestServer({ etcd: etcd.endpoint, etcdPrefix });
      await tab.waitForSelector('#replicas tr.replica[data-self="false"][data-state="live"]', WAIT);
      assert.equal(await tab.locator('#replicas tr.replica').count(), 2);
      assert.equal(await tab.textContent('#replica-count'), '2');
      await tab.screenshot({ path: `${SHOTS}/overview-etcd.png`, fullPage: true });
      // It stops gracefully (deleting its identity Lease): gone from the page.
      await second.stop();
      second = undefined;
      await tab.waitForSelector('#replicas tr.replica[data-self="false"]', { ...WAIT, state: 'detached' });
      assert.equal(await tab.textContent('#replica-count'), '1');
    } finally {
      await tab.close();
      await second?.stop();
      await onEtcd.stop();
      await etcd.stop();
    }
  });

  it('a Deployment page shows a new Pod live when it is scaled', async () => {
    const c = server.client;
    const labels = { app: 'web' };
    await c.post('/apis/apps/v1/namespaces/default/deployments', {
      metadata: { name: 'web' },
      spec: {
        replicas: 1,
        selector: { matchLabels: labels },
        template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      },
    });
    await page.goto(`${server.url}/console/#/objects/apps/v1/deployments/default/web`);
    await page.waitForSelector('#pods li.pod', WAIT);
    assert.equal(await page.locator('#pods li.pod').count(), 1);
    const first = await page.getAttribute('#pods li.pod', 'data-name');
    await page.waitForSelector('#dependents a.dependent-link[data-kind="ReplicaSet"]', WAIT);
    // From here on the page may not load again nor list the Pods again: the new one comes by the open watch.
    await page.evaluate('window.orchTestMark = "same page"');
    const podLists: string[] = [];
    const recordPodLists = (r: { url(): string }) => {
      const url = new URL(r.url());
      if (url.pathname.endsWith('/pods') && !url.searchParams.has('watch')) podLists.push(r.url());
    };
    page.on('request', recordPodLists);
    const scaled = await c.patch(
      '/apis/apps/v1/namespaces/default/deployments/web',
      { spec: { replicas: 2 } },
      'application/merge-patch+json',
    );
    assert.equal(scaled.status, 200, scaled.text);
    const added = page.locator(`#pods li.pod:not([data-name="${first}"])`);
    await added.waitFor(WAIT);
    const name = (await added.getAttribute('data-name')) ?? '';
    // The controllers' Pod, as the API has it: owned by the Deployment's ReplicaSet.
    const pod = await c.get(`/api/v1/namespaces/default/pods/${name}`);
    assert.equal(pod.status, 200, pod.text);
    assert.equal(pod.body.metadata.ownerReferences?.[0]?.kind, 'ReplicaSet');
    assert.equal(await page.locator('#pods li.pod').count(), 2);
    assert.equal(await page.evaluate('window.orchTestMark'), 'same page', 'the page was not reloaded');
    page.off('request', recordPodLists);
    assert.deepEqual(podLists, [], 'the Pods were not listed again');
    // The Deployment's own YAML follows too.
    // (A locator, not waitForFunction with a string: the page's CSP forbids the eval its polling needs.)
    await page.locator('#object-yaml', { hasText: 'replicas: 2' }).waitFor(WAIT);
    await page.screenshot({ path: `${SHOTS}/deployment.png`, fullPage: true });
  });

  it('history: the diff between two revisions of a ConfigMap', async () => {
    const c = server.client;
    await c.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'tracked' }, data: { colour: 'red' } });
    await c.patch('/api/v1/namespaces/default/configmaps/tracked', { data: { colour: 'blue' } }, 'application/merge-patch+json');
    await page.goto(`${server.url}/console/#/objects/core/v1/configmaps/default/tracked`);
    await page.waitForSelector('#history-timeline input.revision', WAIT);
    const boxes = page.locator('#history-timeline input.revision');
    assert.equal(await boxes.count(), 2);
    await boxes.nth(0).check();
    await boxes.nth(1).check();
    await page.waitForSelector('#history-diff .diff-add', WAIT);
    assert.match((await page.locator('#history-diff .diff-add').allTextContents()).join('\n'), /^\+ +colour: blue$/m);
    assert.match((await page.locator('#history-diff .diff-del').allTextContents()).join('\n'), /^- +colour: red$/m);
    await page.screenshot({ path: `${SHOTS}/history.png` });
  });

  it('restore: a deleted ConfigMap is put back from its page with the same uid', async () => {
    const c = server.client;
    const created = await c.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'doomed' }, data: { keep: 'me' } });
    assert.equal(created.status, 201, created.text);
    assert.equal((await c.delete('/api/v1/namespaces/default/configmaps/doomed')).status, 200);
    // The Deleted page lists it, with who deleted it.
    await page.goto(`${server.url}/console/#/deleted`);
    await page.fill('#deleted-namespace', 'default');
    await page.press('#deleted-namespace', 'Enter');
    const item = page.locator('.restore[data-name="configmaps.doomed"]');
    await item.waitFor(WAIT);
    assert.match((await item.textContent()) ?? '', /Deleted by admin/);
    await page.screenshot({ path: `${SHOTS}/deleted.png` });
    // Its own page says it is gone and offers the restore.
    await page.goto(`${server.url}/console/#/objects/core/v1/configmaps/default/doomed`);
    await page.waitForSelector('#object-gone .restore-button', WAIT);
    await page.screenshot({ path: `${SHOTS}/object-deleted.png` });
    await page.click('#object-gone .restore-button');
    // Back, live on the page (its watch sees it), and in the API with the uid it had.
    await page.waitForSelector('#object-yaml', WAIT);
    assert.match((await page.textContent('#object-yaml')) ?? '', new RegExp(`uid: ${created.body.metadata.uid}`));
    const back = await c.get('/api/v1/namespaces/default/configmaps/doomed');
    assert.equal(back.status, 200, back.text);
    assert.equal(back.body.metadata.uid, created.body.metadata.uid);
    assert.deepEqual(back.body.data, { keep: 'me' });
    await page.screenshot({ path: `${SHOTS}/object.png` });
  });

  it('a huge selector is a message on the page, and the server is unaffected', async () => {
    await page.goto(`${server.url}/console/#/objects`);
    await page.click('#kind-core-configmaps', WAIT);
    await page.waitForSelector('#object-table', WAIT);
    await page.screenshot({ path: `${SHOTS}/objects.png` });
    // Beyond what any selector needs: the page says so and sends nothing.
    await page.fill('#label-selector', 'x'.repeat(300_000));
    await page.click('#selectors button');
    assert.match(
      (await page.textContent('#selector-error', WAIT)) ?? '',
      /^The selector is too long \(300,000 characters; at most 65,536\): not sent\.$/,
    );
    assert.equal(await page.locator('#object-table').count(), 1, 'the table stays');
    await page.screenshot({ path: `${SHOTS}/selector-too-long.png` });
    // Long, but sendable: the server's own answer (a 400), cut short on the page.
    await page.fill('#label-selector', `${'x'.repeat(40_000)}=!`);
    await page.click('#selectors button');
    const message = await page.textContent('#table-error', WAIT);
    assert.match(message ?? '', /^ConfigMap: unable to parse requirement/);
    assert.ok((message ?? '').length < 400, 'the message is cut short, not 40,000 characters');
    assert.equal((await server.client.get('/readyz')).status, 200);
    await page.screenshot({ path: `${SHOTS}/huge-selector.png` });
    // A console route that does not exist is said to be so.
    await page.goto(`${server.url}/console/#/nonexistent/page`);
    assert.match((await page.textContent('#no-such-page', WAIT)) ?? '', /^There is no console page #\/nonexistent\/page\./);
  });

  it('events and access pages', async () => {
    await page.goto(`${server.url}/console/#/events`);
    await page.waitForSelector('#events-table tr:nth-child(2)', WAIT);
    await page.screenshot({ path: `${SHOTS}/events.png` });
    await page.goto(`${server.url}/console/#/access`);
    await page.waitForSelector('#who-user', WAIT);
    assert.equal(await page.textContent('#who-user'), 'admin');
    await page.screenshot({ path: `${SHOTS}/access.png` });
  });

  it('a user with view in one namespace sees that namespace and no Secrets', async () => {
    await page.click('header button');
    await signIn(VIEWER_TOKEN);
    await page.waitForSelector('#whoami', WAIT);
    // The overview's storage health is a non-resource path the view role does not grant: said so.
    assert.match(
      (await page.textContent('#storage-error', WAIT)) ?? '',
      /^\/debug\/cluster: Access denied: forbidden: User "viewer" cannot get path "\/debug\/cluster"/,
    );
    // So are the replicas' identity Leases in orch-system.
    assert.match(
      (await page.textContent('#replicas-error', WAIT)) ?? '',
      /^The replicas are read from their identity Leases \(apiserver\.orch\.io\/identity=orch-apiserver\) in orch-system: Access denied: .*User "viewer" cannot list resource "leases"/,
    );
    await page.screenshot({ path: `${SHOTS}/viewer-overview.png`, fullPage: true });
    await page.goto(`${server.url}/console/#/objects?namespace=team`);
    await page.waitForSelector('#kind-core-configmaps', WAIT);
    assert.equal(await page.locator('#kind-core-secrets').count(), 0);
    await page.click('#kind-core-configmaps');
    await page.waitForSelector('#object-table a.object-link', WAIT);
    // The namespace's own (team-settings) and the root CA bundle every namespace gets.
    assert.deepEqual((await page.locator('#object-table a.object-link').allTextContents()).sort(), ['orch-root-ca.crt', 'team-settings']);
    await page.screenshot({ path: `${SHOTS}/viewer.png` });
    // Across all namespaces the API refuses the list, and the page says so.
    await page.fill('#namespace', '');
    await page.press('#namespace', 'Enter');
    await page.click('#kind-core-configmaps', WAIT);
    assert.match(
      (await page.textContent('#table-error', WAIT)) ?? '',
      /^ConfigMap: Access denied: .*forbidden.*the Access page shows what you may do/,
    );
    await page.screenshot({ path: `${SHOTS}/viewer-all-namespaces.png` });
    // A Secret's page, asked by its address: refused, said so, nothing of it shown.
    await page.goto(`${server.url}/console/#/objects/core/v1/secrets/team/team-secret`);
    const denied = (await page.textContent('#object-error', WAIT)) ?? '';
    assert.match(denied, /^Access denied: .*secrets.* is forbidden: User "viewer" cannot list resource "secrets"/);
    assert.equal(await page.locator('#object-yaml').count(), 0);
    await page.screenshot({ path: `${SHOTS}/viewer-secret-denied.png` });
    // The team's deleted ConfigMap is listed, but the viewer is told it may not restore it.
    await page.goto(`${server.url}/console/#/deleted`);
    await page.fill('#deleted-namespace', 'team');
    await page.press('#deleted-namespace', 'Enter');
    const item = page.locator('.restore[data-name="configmaps.team-old"]');
    await item.locator('.denied').waitFor(WAIT);
    assert.match((await item.textContent()) ?? '', /You may not restore it: you may not create configmaps in team/);
    assert.equal(await item.locator('.restore-button').count(), 0);
    await page.screenshot({ path: `${SHOTS}/viewer-deleted.png` });
  });

  it('through orch-proxy, and signed in by the browser client certificate with no token', async () => {
    // One CA for the server, its clients and the proxy; the front-proxy CA for the proxy's identity headers.
    const dir = await mkdtemp(join(tmpdir(), 'orch-console-proxy-'));
    const files = ensureClusterFiles(dir);
    const front = ensureFrontProxyFiles(dir);
    const behind = await startTestServer({
      dataDir: dir,
      args: [
        `--client-ca-file=${files.caFile}`,
        `--requestheader-client-ca-file=${front.caFile}`,
        `--requestheader-allowed-names=${FRONT_PROXY_CN}`,
        '--requestheader-username-headers=X-Remote-User',
        '--requestheader-group-headers=X-Remote-Group',
        '--requestheader-extra-headers-prefix=X-Remote-Extra-',
      ],
    });
    const proxy = await runProxy({
      securePort: 0,
      bindAddress: '127.0.0.1',
      tlsCertFile: files.certFile,
      tlsPrivateKeyFile: files.keyFile,
      clientCAFile: files.caFile,
      proxyClientCertFile: front.client.certFile,
      proxyClientKeyFile: front.client.keyFile,
      backendCAFile: files.caFile,
      backends: [behind.url],
      usernameHeader: 'X-Remote-User',
      groupHeader: 'X-Remote-Group',
      extraHeaderPrefix: 'X-Remote-Extra-',
      healthCheckIntervalMs: 1000,
      healthCheckTimeoutMs: 1000,
      maxAttempts: 3,
      maxRequestBytes: 3 * 1024 * 1024,
      shutdownTimeoutMs: 1000,
      metricsPort: 0,
      metricsBindAddress: '127.0.0.1',
      logLevel: 'error',
      featureGates: new FeatureGateOptions().gates,
      featureGateWarnings: [],
    });
    const proxyUrl = `https://127.0.0.1:${proxy.port}`;
    const cert = { certPath: files.admin.certFile, keyPath: files.admin.keyFile };
    const context = await browser.newContext({
      ignoreHTTPSErrors: true,
      viewport: { width: 1400, height: 1000 },
      clientCertificates: [
        { origin: proxyUrl, ...cert },
        { origin: behind.url, ...cert },
      ],
    });
    try {
      const tab = await context.newPage();
      for (const url of [proxyUrl, behind.url]) {
        // No token typed: the certificate the browser presents signs it in (through the proxy: forwarded as identity headers).
        await tab.goto(`${url}/console/`);
        await tab.waitForSelector('#whoami', WAIT);
        assert.equal(await tab.textContent('#whoami'), 'admin', url);
        assert.equal(await tab.textContent('#signed-in-by'), 'client certificate');
        assert.equal(await tab.evaluate("sessionStorage.getItem('orch.token')"), null);
        await tab.waitForSelector('#health-readyz h3.ok', WAIT);
        await tab.waitForSelector('#storage-backend', WAIT);
        await tab.goto(`${url}/console/#/objects/core/v1/namespaces/-/default`);
        await tab.waitForSelector('#object-yaml', WAIT);
        await tab.screenshot({ path: `${SHOTS}/${url === proxyUrl ? 'proxy' : 'direct'}-client-certificate.png` });
      }
      // The console's files through the proxy as served: same CSP, a path outside the bundle a 404.
      const index = await tab.request.get(`${proxyUrl}/console/`);
      assert.equal(index.status(), 200);
      assert.match(index.headers()['content-security-policy'] ?? '', /script-src 'self'/);
      assert.equal((await tab.request.get(`${proxyUrl}/console/nonexistent`)).status(), 404);
      // What a cross-site form could send with the certificate (a "simple" POST, no preflight) is refused unread.
      const forged = await tab.request.post(`${proxyUrl}/api/v1/namespaces/default/configmaps`, {
        headers: { 'Content-Type': 'text/plain' },
        data: '{"metadata":{"name":"csrf"}}',
      });
      assert.equal(forged.status(), 415, await forged.text());
      assert.equal((await behind.client.get('/api/v1/namespaces/default/configmaps/csrf')).status, 404);
    } finally {
      await context.close();
      await proxy.close();
      await behind.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
