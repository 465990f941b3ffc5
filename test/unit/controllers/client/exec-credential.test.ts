import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile, readFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExecCredentialPlugin, execInfoVariable } from '../../../../controllers/client/exec-credential.js';
import type { ClusterInfo, ExecConfig } from '../../../../controllers/client/kubeconfig.js';
import { newApiDomain } from '../../../../apiserver/api/domain.js';

const domain = newApiDomain();
const V1 = 'client.authentication.orch.io/v1';
const cluster: ClusterInfo = {
  server: 'https://api:6443',
  caPem: 'CA PEM',
  insecureSkipTlsVerify: false,
  disableCompression: false,
  execExtension: { audience: 'orch' },
};

/**
 * A plugin that counts its runs in $DIR/count, saves its exec-info variable in $DIR/info and prints
 * an ExecCredential with token tok-<run> plus $EXTRA in its status.
 */
const PLUGIN = String.raw`#!/bin/sh
n=$(cat "$DIR/count" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$DIR/count"
printenv "$INFO_VAR" > "$DIR/info"
printf '{"apiVersion":"%s","kind":"ExecCredential","status":{"token":"tok-%s"%s}}\n' "$VERSION" "$n" "$EXTRA"
exit "$CODE"
`;

describe('exec credential plugins', () => {
  let dir: string;
  let plugin: string;
  let run = 0;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-exec-'));
    plugin = join(dir, 'plugin.sh');
    await writeFile(plugin, PLUGIN);
    await chmod(plugin, 0o755);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  /** A plugin config with its own state folder. */
  async function setup(opts: { extra?: string; version?: string; code?: number; exec?: Partial<ExecConfig> } = {}) {
    const state = join(dir, `run-${++run}`);
    await mkdir(state);
    const exec: ExecConfig = {
      apiVersion: V1,
      command: plugin,
      args: [],
      env: [
        { name: 'DIR', value: state },
        { name: 'EXTRA', value: opts.extra ?? '' },
        { name: 'VERSION', value: opts.version ?? V1 },
        { name: 'CODE', value: String(opts.code ?? 0) },
        { name: 'INFO_VAR', value: execInfoVariable(domain) },
      ],
      interactiveMode: 'Never',
      provideClusterInfo: false,
      ...opts.exec,
    };
    const runs = async () => Number((await readFile(join(state, 'count'), 'utf8').catch(() => '0')).trim());
    const info = async () => JSON.parse(await readFile(join(state, 'info'), 'utf8'));
    return { exec, runs, info };
  }

  it('runs the plugin once and caches the credential without an expiry', async () => {
    const { exec, runs } = await setup();
    const p = new ExecCredentialPlugin(exec, cluster, { domain });
    assert.deepEqual(await p.credentials(), { token: 'tok-1' });
    assert.deepEqual(await p.credentials(), { token: 'tok-1' });
    assert.equal(await runs(), 1);
  });

  it('runs it again once expirationTimestamp has passed', async () => {
    const { exec, runs } = await setup({ extra: ',"expirationTimestamp":"2030-01-01T00:00:00Z"' });
    let now = Date.parse('2029-12-31T23:59:00Z');
    const p = new ExecCredentialPlugin(exec, cluster, { domain, now: () => now });
    assert.equal((await p.credentials()).token, 'tok-1');
    assert.equal((await p.credentials()).token, 'tok-1');
    now = Date.parse('2030-01-01T00:00:01Z');
    assert.equal((await p.credentials()).token, 'tok-2');
    assert.equal(await runs(), 2);
  });

  it('after a 401 runs it again, unless the credential was already replaced', async () => {
    const { exec, runs } = await setup();
    const p = new ExecCredentialPlugin(exec, cluster, { domain });
    const first = await p.credentials();
    const second = await p.unauthorized(first);
    assert.equal(second.token, 'tok-2');
    assert.equal((await p.unauthorized(first)).token, 'tok-2', 'a 401 to the old credential does not run it a third time');
    assert.equal(await runs(), 2);
  });

  it('concurrent callers share one run', async () => {
    const { exec, runs } = await setup();
    const p = new ExecCredentialPlugin(exec, cluster, { domain });
    const all = await Promise.all([p.credentials(), p.credentials(), p.credentials()]);
    assert.deepEqual(
      all.map((c) => c.token),
      ['tok-1', 'tok-1', 'tok-1'],
    );
    assert.equal(await runs(), 1);
  });

  it('passes ORCH_EXEC_INFO: interactive, and the cluster with provideClusterInfo', async () => {
    const plain = await setup();
    await new ExecCredentialPlugin(plain.exec, cluster, { domain }).credentials();
    assert.deepEqual(await plain.info(), { kind: 'ExecCredential', apiVersion: V1, spec: { interactive: false } });

    const withCluster = await setup({ exec: { provideClusterInfo: true, interactiveMode: 'IfAvailable' } });
    await new ExecCredentialPlugin(withCluster.exec, cluster, { domain, stdinIsTerminal: true }).credentials();
    assert.deepEqual(await withCluster.info(), {
      kind: 'ExecCredential',
      apiVersion: V1,
      spec: {
        cluster: {
          server: 'https://api:6443',
          'certificate-authority-data': Buffer.from('CA PEM').toString('base64'),
          config: { audience: 'orch' },
        },
        interactive: true,
      },
    });
    assert.equal(execInfoVariable(newApiDomain('k8s.io')), 'KUBERNETES_EXEC_INFO');
  });

  it('refuses interactiveMode Always without a terminal', async () => {
    const { exec, runs } = await setup({ exec: { interactiveMode: 'Always' } });
    await assert.rejects(new ExecCredentialPlugin(exec, cluster, { domain, stdinIsTerminal: false }).credentials(), {
      message: 'exec plugin cannot support interactive mode: standard input is not a terminal',
    });
    assert.equal(await runs(), 0);
  });

  it('a missing command names it and shows the install hint', async () => {
    const { exec } = await setup({ exec: { command: join(dir, 'not-installed'), installHint: 'Install it with: make plugin' } });
    await assert.rejects(new ExecCredentialPlugin(exec, cluster, { domain }).credentials(), (err: Error) => {
      assert.match(err.message, new RegExp(`^exec: executable ${join(dir, 'not-installed')} not found\n`));
      assert.match(err.message, /\n\nInstall it with: make plugin$/);
      return true;
    });
  });

  it('reports a failing plugin and bad output the way client-go does', async () => {
    const failing = await setup({ code: 3 });
    await assert.rejects(new ExecCredentialPlugin(failing.exec, cluster, { domain }).credentials(), {
      message: `exec: executable ${plugin} failed with exit code 3`,
    });
    const wrongVersion = await setup({ version: 'client.authentication.orch.io/v1beta1' });
    await assert.rejects(new ExecCredentialPlugin(wrongVersion.exec, cluster, { domain }).credentials(), {
      message:
        'exec plugin is configured to use API version client.authentication.orch.io/v1, plugin returned version client.authentication.orch.io/v1beta1',
    });
    const certOnly = await setup({ extra: ',"clientCertificateData":"x"' });
    await assert.rejects(new ExecCredentialPlugin(certOnly.exec, cluster, { domain }).credentials(), {
      message: 'exec plugin returned only certificate or key, not both',
    });
  });
});
