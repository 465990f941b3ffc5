import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { OptionsError } from '../../../../apiserver/component-base/flag/options-error.js';
import { controllerManagerCommand, parseOptions } from '../../../../controllers/app/options.js';

const usage = () => controllerManagerCommand.usage();
const helpRequested = (argv: string[]) => controllerManagerCommand.parse(argv).help;
import { enabledControllers } from '../../../../controllers/app/controller-names.js';

describe('orch-controller-manager options', () => {
  it('has kube-controller-manager defaults', () => {
    const o = parseOptions(['--kubeconfig', 'admin.kubeconfig']);
    assert.equal(o.kubeconfig, 'admin.kubeconfig');
    assert.deepEqual(o.controllers, ['*']);
    assert.equal(o.leaderElect, true);
    assert.deepEqual([o.leaseDurationMs, o.renewDeadlineMs, o.retryPeriodMs], [15_000, 10_000, 2_000]);
    assert.deepEqual([o.securePort, o.bindAddress, o.apiDomain], [10257, '0.0.0.0', 'orch.io']);
    assert.deepEqual([o.concurrentNamespaceSyncs, o.concurrentGcSyncs, o.namespaceSyncPeriodMs], [10, 20, 300_000]);
    assert.equal(o.logLevel, 'info');
  });

  it('parses --flag=value, --flag value, booleans, durations and accumulating lists', () => {
    const o = parseOptions([
      '--kubeconfig=k',
      '--controllers=*,-namespace',
      '--controllers',
      'serviceaccount',
      '--leader-elect=false',
      '--leader-elect-lease-duration=1m30s',
      '--leader-elect-renew-deadline',
      '500ms',
      '--secure-port=0',
      '--v=4',
    ]);
    assert.deepEqual(o.controllers, ['*', '-namespace', 'serviceaccount']);
    assert.equal(o.leaderElect, false);
    assert.equal(o.leaseDurationMs, 90_000);
    assert.equal(o.renewDeadlineMs, 500);
    assert.equal(o.securePort, 0);
    assert.equal(o.logLevel, 'debug');
  });

  it('rejects bad command lines with one-line errors', () => {
    const bad: [string[], string][] = [
      [[], '--kubeconfig is required'],
      [['--kubeconfig'], 'flag needs an argument: --kubeconfig'],
      [['--kubeconfig=k', '--nope'], 'unknown flag: --nope'],
      [['--kubeconfig=k', 'extra'], '"orch-controller-manager" does not take any arguments, got ["extra"]'],
      [
        ['--kubeconfig=k', '--leader-elect=maybe'],
        'invalid argument "maybe" for "--leader-elect" flag: strconv.ParseBool: parsing "maybe": invalid syntax',
      ],
      [
        ['--kubeconfig=k', '--leader-elect-retry-period=2'],
        'invalid argument "2" for "--leader-elect-retry-period" flag: time: missing unit in duration "2"',
      ],
      [['--kubeconfig=k', '--secure-port=70000'], '--secure-port 70000 must be between 0 and 65535, inclusive. 0 picks a free port'],
      [['--kubeconfig=k', '--bind-address=here'], 'invalid argument "here" for "--bind-address" flag: failed to parse IP: "here"'],
      [['--kubeconfig=k', '--controllers=*,-bogus'], '--controllers: "bogus" is not in the list of known controllers'],
    ];
    for (const [argv, message] of bad) assert.throws(() => parseOptions(argv), new OptionsError(message), argv.join(' '));
  });

  it('node eviction: kube-controller-manager defaults, floats, and refusals', () => {
    assert.deepEqual(parseOptions(['--kubeconfig=k']).nodeEviction, {
      evictionRate: 0.1,
      secondaryEvictionRate: 0.01,
      unhealthyZoneThreshold: 0.55,
      largeClusterSizeThreshold: 50,
    });
    assert.deepEqual(
      parseOptions([
        '--kubeconfig=k',
        '--node-eviction-rate=2',
        '--secondary-node-eviction-rate=0.5',
        '--unhealthy-zone-threshold=0.3',
        '--large-cluster-size-threshold=10',
      ]).nodeEviction,
      { evictionRate: 2, secondaryEvictionRate: 0.5, unhealthyZoneThreshold: 0.3, largeClusterSizeThreshold: 10 },
    );
    const bad: [string[], string][] = [
      [
        ['--node-eviction-rate=fast'],
        'invalid argument "fast" for "--node-eviction-rate" flag: strconv.ParseFloat: parsing "fast": invalid syntax',
      ],
      [['--secondary-node-eviction-rate=-1'], '--secondary-node-eviction-rate must not be negative'],
      [['--unhealthy-zone-threshold=1.5'], '--unhealthy-zone-threshold must be greater than 0 and at most 1'],
    ];
    for (const [argv, message] of bad) assert.throws(() => parseOptions(['--kubeconfig=k', ...argv]), new OptionsError(message));
  });

  it('--cluster-signing-*: one CA for every signer or one per signer, never both, and the longest lifetime', () => {
    assert.deepEqual(parseOptions(['--kubeconfig=k']).csrSigning, { cas: {}, durationMs: 365 * 24 * 3_600_000 });
    const all = parseOptions(['--kubeconfig=k', '--cluster-signing-cert-file=ca.crt', '--cluster-signing-key-file=ca.key']);
    const pair = { certFile: 'ca.crt', keyFile: 'ca.key' };
    assert.deepEqual(all.csrSigning.cas, { nodeServing: pair, apiServerClientNode: pair, apiServerClient: pair, legacyUnknown: pair });
    const one = parseOptions([
      '--kubeconfig=k',
      '--cluster-signing-kubelet-client-cert-file=n.crt',
      '--cluster-signing-kubelet-client-key-file=n.key',
      '--cluster-signing-duration=2h',
    ]);
    assert.deepEqual(one.csrSigning, { cas: { apiServerClientNode: { certFile: 'n.crt', keyFile: 'n.key' } }, durationMs: 7_200_000 });
    const bad: [string[], string][] = [
      [
        ['--cluster-signing-cert-file=a', '--cluster-signing-key-file=b', '--cluster-signing-legacy-unknown-cert-file=c'],
        'cannot specify --cluster-signing-{cert,key}-file and other --cluster-signing-*-file flags at the same time',
      ],
      [['--cluster-signing-cert-file=a'], '--cluster-signing-cert-file and --cluster-signing-key-file must be given together'],
      [
        ['--cluster-signing-kube-apiserver-client-key-file=a'],
        '--cluster-signing-kube-apiserver-client-cert-file and --cluster-signing-kube-apiserver-client-key-file must be given together',
      ],
      [['--cluster-signing-duration=0s'], '--cluster-signing-duration must be greater than zero'],
    ];
    for (const [argv, message] of bad)
      assert.throws(() => parseOptions(['--kubeconfig=k', ...argv]), new OptionsError(message), argv.join(' '));
  });

  it('--help is recognised and lists every flag with its default', () => {
    assert.equal(helpRequested(['--help']), true);
    assert.equal(helpRequested(['-h']), true);
    assert.equal(helpRequested(['--kubeconfig=k']), false);
    const text = usage();
    assert.match(text, /--leader-elect-lease-duration duration\s+.*\(default 15s\)/);
    assert.match(text, /--controllers strings\s+.*\(default \[\*\]\)/);
  });
});

/** The controllers `*` enables (every default-on one), sorted. */
const DEFAULT_ON = [
  'certificatesigningrequest-approving-controller',
  'certificatesigningrequest-cleaner-controller',
  'certificatesigningrequest-signing-controller',
  'clusterrole-aggregation-controller',
  'cronjob-controller',
  'daemonset-controller',
  'deployment-controller',
  'disruption-controller',
  'endpoints-controller',
  'endpointslice-controller',
  'endpointslice-mirroring-controller',
  'garbage-collector-controller',
  'job-controller',
  'namespace-controller',
  'node-lifecycle-controller',
  'persistentvolume-binder-controller',
  'persistentvolume-protection-controller',
  'persistentvolumeclaim-protection-controller',
  'pod-garbage-collector-controller',
  'replicaset-controller',
  'replicationcontroller-controller',
  'resourcequota-controller',
  'root-ca-certificate-publisher-controller',
  'serviceaccount-controller',
  'serviceaccount-token-controller',
  'statefulset-controller',
  'ttl-after-finished-controller',
  'ttl-controller',
];
const without = (...names: string[]) => DEFAULT_ON.filter((n) => !names.includes(n));

describe('--controllers', () => {
  it('* enables the default-on controllers; -name disables; aliases map to canonical names', () => {
    assert.deepEqual(enabledControllers(['*']), DEFAULT_ON);
    assert.deepEqual(
      enabledControllers(['*', '-garbagecollector', '-root-ca-cert-publisher']),
      without('garbage-collector-controller', 'root-ca-certificate-publisher-controller'),
    );
    assert.deepEqual(
      enabledControllers([
        '*',
        '-garbagecollector',
        '-root-ca-cert-publisher',
        '-csrsigning',
        '-csrapproving',
        '-csrcleaner',
        '-serviceaccount-token',
        '-clusterrole-aggregation',
      ]),
      without(
        'garbage-collector-controller',
        'root-ca-certificate-publisher-controller',
        'certificatesigningrequest-signing-controller',
        'certificatesigningrequest-approving-controller',
        'certificatesigningrequest-cleaner-controller',
        'serviceaccount-token-controller',
        'clusterrole-aggregation-controller',
      ),
    );
    assert.deepEqual(enabledControllers(['namespace']), ['namespace-controller']);
  });

  it('the first entry naming a controller decides', () => {
    assert.deepEqual(enabledControllers(['-namespace', 'namespace']), []);
    assert.deepEqual(enabledControllers(['namespace-controller', '-namespace', '*']), DEFAULT_ON);
  });

  it('rejects unknown names', () => {
    assert.throws(() => enabledControllers(['tokenrotator']), { message: '"tokenrotator" is not in the list of known controllers' });
  });
});
