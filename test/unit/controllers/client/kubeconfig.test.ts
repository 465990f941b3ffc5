import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { loadKubeconfig, parseKubeconfig, KubeconfigError } from '../../../../controllers/client/kubeconfig.js';
import { newApiDomain } from '../../../../apiserver/api/domain.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

function config(user: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      { name: 'one', cluster: { server: 'https://one:6443', 'certificate-authority-data': b64('CA ONE') } },
      {
        name: 'two',
        cluster: {
          server: 'https://two:6443',
          'certificate-authority': 'certs/ca.pem',
          'insecure-skip-tls-verify': true,
          'tls-server-name': 'api.two',
        },
      },
    ],
    users: [{ name: 'u', user }],
    contexts: [
      { name: 'c1', context: { cluster: 'one', user: 'u' } },
      { name: 'c2', context: { cluster: 'two', user: 'u', namespace: 'team' } },
    ],
    'current-context': 'c1',
    ...extra,
  });
}

describe('kubeconfig', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-kubeconfig-'));
    await mkdir(join(dir, 'certs'));
    await writeFile(join(dir, 'certs', 'ca.pem'), 'CA TWO');
    await writeFile(join(dir, 'certs', 'client.crt'), 'CERT');
    await writeFile(join(dir, 'certs', 'client.key'), 'KEY');
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('resolves the current context: server, CA data, token, default namespace', () => {
    const c = parseKubeconfig(config({ token: 'abc' }), dir);
    assert.equal(c.server, 'https://one:6443');
    assert.equal(c.cluster.caPem, 'CA ONE');
    assert.equal(c.cluster.insecureSkipTlsVerify, false);
    assert.equal(c.token, 'abc');
    assert.equal(c.namespace, 'default');
  });

  it('a named context; files relative to the kubeconfig folder; tls-server-name and insecure', async () => {
    const file = join(dir, 'kc.yaml');
    await writeFile(file, config({ 'client-certificate': 'certs/client.crt', 'client-key': 'certs/client.key', tokenFile: 'token' }));
    const c = loadKubeconfig(file, { context: 'c2' });
    assert.equal(c.cluster.caPem, 'CA TWO');
    assert.equal(c.cluster.insecureSkipTlsVerify, true);
    assert.equal(c.cluster.tlsServerName, 'api.two');
    assert.equal(c.certPem, 'CERT');
    assert.equal(c.keyPem, 'KEY');
    assert.equal(c.tokenFile, join(dir, 'token'));
    assert.equal(c.namespace, 'team');
  });

  it('reports a missing context, a missing server and an unreadable file', () => {
    assert.throws(
      () => parseKubeconfig(config({}), dir, { context: 'nope' }),
      new KubeconfigError('context was not found for specified context: nope'),
    );
    const noServer = stringify({
      clusters: [{ name: 'x', cluster: {} }],
      contexts: [{ name: 'c', context: { cluster: 'x' } }],
      'current-context': 'c',
    });
    assert.throws(() => parseKubeconfig(noServer, dir), /invalid configuration: cluster has no server defined/);
    assert.throws(() => parseKubeconfig('{}', dir), /invalid configuration: no configuration has been provided/);
    assert.throws(() => loadKubeconfig(join(dir, 'missing.yaml')), /unable to read kubeconfig .*missing\.yaml/);
  });

  describe('exec', () => {
    const exec = (e: Record<string, unknown>) => parseKubeconfig(config({ exec: e }), dir).exec;

    it('resolves a command with a slash against the kubeconfig folder; a bare one stays for PATH', () => {
      const rel = exec({ apiVersion: 'client.authentication.orch.io/v1', command: './bin/plugin', interactiveMode: 'Never' });
      assert.equal(rel?.command, join(dir, 'bin', 'plugin'));
      const bare = exec({
        apiVersion: 'client.authentication.orch.io/v1',
        command: 'plugin',
        args: ['a', 'b'],
        env: [{ name: 'K', value: 'V' }],
        interactiveMode: 'Always',
        provideClusterInfo: true,
        installHint: 'get it',
      });
      assert.deepEqual(bare, {
        apiVersion: 'client.authentication.orch.io/v1',
        command: 'plugin',
        args: ['a', 'b'],
        env: [{ name: 'K', value: 'V' }],
        interactiveMode: 'Always',
        provideClusterInfo: true,
        installHint: 'get it',
      });
    });

    it('v1 requires interactiveMode; v1beta1 defaults it to IfAvailable', () => {
      assert.throws(
        () => exec({ apiVersion: 'client.authentication.orch.io/v1', command: 'p' }),
        new KubeconfigError('invalid configuration: interactiveMode must be specified for u to use exec authentication plugin'),
      );
      assert.equal(exec({ apiVersion: 'client.authentication.orch.io/v1beta1', command: 'p' })?.interactiveMode, 'IfAvailable');
    });

    it('lists every problem, as clientcmd does', () => {
      assert.throws(
        () => exec({ env: [{ value: 'x' }], interactiveMode: 'Sometimes' }),
        new KubeconfigError(
          'invalid configuration: [command must be specified for u to use exec authentication plugin, apiVersion must be specified for u to use exec authentication plugin, env variable name must be specified for u to use exec authentication plugin, invalid interactiveMode for u: "Sometimes"]',
        ),
      );
    });

    it("accepts Kubernetes' ExecCredential versions and the domain's, and no other", () => {
      // A kubeconfig written for Kubernetes (aws, gke, kubelogin plugins) works in the default domain.
      assert.equal(
        exec({ apiVersion: 'client.authentication.k8s.io/v1', command: 'p', interactiveMode: 'Never' })?.apiVersion,
        'client.authentication.k8s.io/v1',
      );
      assert.equal(exec({ apiVersion: 'client.authentication.k8s.io/v1beta1', command: 'p' })?.interactiveMode, 'IfAvailable');
      assert.throws(
        () => exec({ apiVersion: 'client.authentication.k8s.io/v1alpha1', command: 'p', interactiveMode: 'Never' }),
        new KubeconfigError('exec plugin: invalid apiVersion "client.authentication.k8s.io/v1alpha1"'),
      );
      assert.throws(
        () =>
          parseKubeconfig(
            config({ exec: { apiVersion: 'client.authentication.orch.io/v1', command: 'p', interactiveMode: 'Never' } }),
            dir,
            {
              domain: newApiDomain('k8s.io'),
            },
          ),
        new KubeconfigError('exec plugin: invalid apiVersion "client.authentication.orch.io/v1"'),
      );
      const k8s = parseKubeconfig(
        config({ exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'p', interactiveMode: 'Never' } }),
        dir,
        { domain: newApiDomain('k8s.io') },
      );
      assert.equal(k8s.exec?.apiVersion, 'client.authentication.k8s.io/v1');
    });

    it("passes the cluster's exec extension on", () => {
      const text = stringify({
        clusters: [
          {
            name: 'x',
            cluster: { server: 'https://x', extensions: [{ name: 'client.authentication.orch.io/exec', extension: { audience: 'orch' } }] },
          },
        ],
        users: [{ name: 'u', user: {} }],
        contexts: [{ name: 'c', context: { cluster: 'x', user: 'u' } }],
        'current-context': 'c',
      });
      assert.deepEqual(parseKubeconfig(text, dir).cluster.execExtension, { audience: 'orch' });
      const kube = text.replace('client.authentication.orch.io/exec', 'client.authentication.k8s.io/exec');
      assert.deepEqual(parseKubeconfig(kube, dir).cluster.execExtension, { audience: 'orch' });
    });

    it('reads a kubeconfig of apiVersion v1 (or none), not another', () => {
      assert.throws(
        () => parseKubeconfig(config({}).replace('apiVersion: v1', 'apiVersion: v2'), dir),
        /error loading config: want kind Config of apiVersion v1; got kind "Config" of apiVersion "v2"/,
      );
      assert.equal(parseKubeconfig(config({}).replace('apiVersion: v1\n', ''), dir).server, 'https://one:6443');
    });
  });
});
