import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { OptionsError } from '../../../apiserver/component-base/flag/options-error.js';
import { allInOneCommand, apiserverArgs, controllerManagerArgs, parseAllInOne } from '../../../scripts/all-in-one-options.js';

function options(...argv: string[]) {
  const parsed = parseAllInOne(argv);
  assert.equal(parsed.help, false);
  return parsed.help ? undefined : parsed.options;
}

function fails(argv: string[], message: string | RegExp): void {
  assert.throws(
    () => parseAllInOne(argv),
    (err: unknown) => {
      assert.ok(err instanceof OptionsError, String(err));
      if (typeof message === 'string') assert.equal(err.message, message);
      else assert.match(err.message, message);
      return true;
    },
    argv.join(' '),
  );
}

describe('all-in-one command line', () => {
  it('has its own defaults and passes nothing on by default', () => {
    assert.deepEqual(options(), { dataDir: './data', securePort: 6443, apiserverArgs: [], controllerManagerArgs: [] });
  });

  it('reads its own flags in every pflag form', () => {
    assert.deepEqual(options('--data-dir', '/d', '--secure-port=7443'), {
      dataDir: '/d',
      securePort: 7443,
      apiserverArgs: [],
      controllerManagerArgs: [],
    });
  });

  it("routes each other flag by the binaries' flag tables: the API server's, the controller manager's, or both", () => {
    const o = options(
      '--etcd-servers',
      'http://127.0.0.1:2379',
      '--watch-cache=false',
      '--controllers=*,-garbagecollector',
      '--leader-elect-lease-duration',
      '30s',
      '--api-domain=k8s.io',
      '-v',
      '4',
      '--concurrent-gc-syncs=5',
    );
    assert.deepEqual(o?.apiserverArgs, ['--etcd-servers=http://127.0.0.1:2379', '--watch-cache=false', '--api-domain=k8s.io', '--v=4']);
    assert.deepEqual(o?.controllerManagerArgs, [
      '--controllers=*,-garbagecollector',
      '--leader-elect-lease-duration=30s',
      '--api-domain=k8s.io',
      '--v=4',
      '--concurrent-gc-syncs=5',
    ]);
  });

  it('refuses a flag neither binary knows, with one pflag line', () => {
    fails(['--api-domian=k8s.io'], 'unknown flag: --api-domian');
    fails(['-x'], "unknown shorthand flag: 'x' in -x");
    fails(['run'], '"all-in-one" does not take any arguments, got ["run"]');
    fails(['--etcd-prefix'], 'flag needs an argument: --etcd-prefix');
  });

  it('refuses flags it sets on a child itself', () => {
    fails(['--tls-cert-file=/a.crt'], '--tls-cert-file is set by the all-in-one for orch-apiserver');
    fails(['--kubeconfig', 'k'], '--kubeconfig is set by the all-in-one for orch-controller-manager');
    fails(['--cert-dir=/c'], '--cert-dir is set by the all-in-one for orch-controller-manager');
    fails(['--controller-manager-port=1'], '--controller-manager-port is set by the all-in-one for orch-apiserver');
  });

  it("gives the controller manager's port to both: its --secure-port and the API server's ComponentStatus probe", () => {
    const files = {
      caFile: 'ca.crt',
      caKeyFile: 'ca.key',
      certFile: 'a.crt',
      keyFile: 'a.key',
      serviceAccountKeyFile: 'sa.key',
      serviceAccountPublicKeyFile: 'sa.pub',
      controllerManagerKubeconfigFile: 'cm.kubeconfig',
      controllerKubeconfigDir: 'controllers',
      controllerManagerCertDir: 'cm',
    };
    assert.ok(apiserverArgs({ dataDir: 'd', securePort: 6443 }, files, 41234).includes('--controller-manager-port=41234'));
    assert.ok(controllerManagerArgs(files, 41234).includes('--secure-port=41234'));
    assert.ok(!apiserverArgs({ dataDir: 'd', securePort: 6443 }, files).some((a) => a.startsWith('--controller-manager-port')));
    assert.ok(controllerManagerArgs(files).includes('--secure-port=0'));
  });

  it("checks its own values and the children's before starting anything", () => {
    fails(['--secure-port=0'], '--secure-port 0 must be between 1 and 65535, inclusive');
    fails(['--data-dir='], '--data-dir must not be empty');
    fails(['--secure-port=http'], 'invalid argument "http" for "--secure-port" flag: strconv.ParseInt: parsing "http": invalid syntax');
    fails(['--api-domain=K8S.IO'], /^orch-apiserver: --api-domain "K8S.IO": a lowercase RFC 1123 subdomain/);
    fails(['--storage-backend=etcd3'], 'orch-apiserver: --etcd-servers must be specified when --storage-backend=etcd3');
    fails(['--controllers=-bogus'], 'orch-controller-manager: --controllers: "bogus" is not in the list of known controllers');
    fails(['--v=11'], 'orch-apiserver: --v 11 must be between 0 and 10, inclusive');
  });

  it('--help shows its own flags', () => {
    assert.deepEqual(parseAllInOne(['--help']), { help: true });
    assert.deepEqual(parseAllInOne(['--api-domain=k8s.io', '-h']), { help: true });
    const text = allInOneCommand.usage();
    assert.match(text, /^ {6}--data-dir string +.*\(default "\.\/data"\)$/m);
    assert.match(text, /^ {6}--secure-port int +.*\(default 6443\)$/m);
    assert.match(text, /^ {2}-h, --help +help for all-in-one$/m);
    assert.match(text, /passed to the one that has it/);
  });
});
