import { test } from 'node:test';
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { OptionsError } from '../../../apiserver/component-base/flag/options-error.js';
import { apiserverCommand, parseServerOptions } from '../../../apiserver/server/options.js';

const usage = () => apiserverCommand.usage();
const helpRequested = (argv: string[]) => apiserverCommand.parse(argv).help;

function fails(argv: string[], message: string | RegExp): void {
  assert.throws(
    () => parseServerOptions(argv),
    (err: unknown) => {
      assert.ok(err instanceof OptionsError, `expected OptionsError, got ${String(err)}`);
      if (typeof message === 'string') assert.equal(err.message, message);
      else assert.match(err.message, message);
      assert.ok(!err.message.includes('\n'), 'one-line message');
      return true;
    },
  );
}

test('defaults', () => {
  const { featureGates, ...options } = parseServerOptions([]);
  assert.equal(featureGates.enabled('ConsistentListFromCache'), true);
  assert.deepEqual(options, {
    etcdServers: [],
    etcdPrefix: '/registry',
    etcdCompactionIntervalMs: 5 * 60_000,
    historyRetentionMs: 24 * 60 * 60_000,
    historyRetentionMaxRevisions: 1_000_000,
    historyRetentionMaxBytes: 0,
    storageBackend: 'sqlite',
    encryptionProviderConfig: '',
    dataDir: './data',
    securePort: 6443,
    bindAddress: '0.0.0.0',
    tlsCertFile: undefined,
    tlsPrivateKeyFile: undefined,
    certDir: 'data/certs',
    clientCAFile: undefined,
    tokenAuthFile: undefined,
    serviceAccountIssuers: [],
    serviceAccountSigningKeyFile: undefined,
    serviceAccountKeyFiles: [],
    serviceAccountLookup: true,
    apiAudiences: [],
    serviceAccountMaxTokenExpirationSeconds: 0,
    requestHeader: undefined,
    bootstrapTokenAuth: false,
    tokenWebhook: undefined,
    oidc: undefined,
    anonymousAuth: true,
    authorizationModes: ['AlwaysAllow'],
    authorizationPolicyFile: undefined,
    authorizationWebhookConfigFile: undefined,
    authorizationWebhookVersion: 'v1beta1',
    authorizationWebhookCacheAuthorizedTtlMs: 5 * 60_000,
    authorizationWebhookCacheUnauthorizedTtlMs: 30_000,
    apiDomain: 'orch.io',
    shutdownDelayMs: 0,
    livezGracePeriodMs: 0,
    maxRequestBytes: 3145728,
    maxRequestsInflight: 400,
    maxMutatingRequestsInflight: 200,
    enablePriorityAndFairness: true,
    minRequestTimeoutSeconds: 1800,
    maxWatchesPerUser: 1000,
    requestTimeoutMs: 60_000,
    eventTtlMs: 3_600_000,
    logLevel: 'info',
    serviceClusterIPRanges: ['10.0.0.0/24'],
    serviceNodePortRange: { base: 30000, size: 2768 },
    watchCache: true,
    console: true,
    workers: Math.max(1, availableParallelism() - 1),
    defaultWatchCacheSize: 10_000,
    kubeletPort: 10250,
    controllerManagerPort: 10257,
    kubeletPreferredAddressTypes: ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'],
    kubeletClientCertificate: undefined,
    kubeletClientKey: undefined,
    kubeletCertificateAuthority: undefined,
    kubeletTimeoutMs: 5000,
    admission: { enablePlugins: [], disablePlugins: [], configFile: '' },
    admissionFlags: { defaultNotReadyTolerationSeconds: 300, defaultUnreachableTolerationSeconds: 300 },
    audit: {
      policyFile: undefined,
      logPath: undefined,
      logMaxSizeMB: 0,
      logMaxBackups: 0,
      logMaxAgeDays: 0,
      webhookConfigFile: undefined,
      webhookBatchMaxSize: 400,
      webhookBatchMaxWaitMs: 30_000,
      webhookInitialBackoffMs: 10_000,
    },
    aggregator: { proxyClientCertFile: undefined, proxyClientKeyFile: undefined, enableAggregatorRouting: true },
    runtimeConfig: new Map(),
    featureGateWarnings: [],
    showHiddenMetricsForVersion: '',
  });
});

test('every flag, in both --flag=value and --flag value forms', () => {
  const { featureGates, ...o } = parseServerOptions([
    '--etcd-servers=http://a:2379,https://b:2379',
    '--etcd-prefix',
    '/orch',
    '--etcd-compaction-interval=1h30m',
    '--history-retention=2h',
    '--history-retention-max-revisions=5000',
    '--history-retention-max-bytes=1073741824',
    '--encryption-provider-config=/encryption.yaml',
    '--storage-backend',
    'etcd3',
    '--data-dir=/var/lib/orch',
    '--secure-port',
    '8443',
    '--bind-address=127.0.0.1',
    '--tls-cert-file',
    '/c.crt',
    '--tls-private-key-file=/c.key',
    '--cert-dir',
    '/certs',
    '--client-ca-file=/ca.crt',
    '--token-auth-file',
    '/tokens.csv',
    '--service-account-issuer=https://a',
    '--service-account-issuer',
    'https://b',
    '--service-account-signing-key-file=/sa.key',
    '--service-account-key-file=/sa1.pub',
    '--service-account-key-file',
    '/sa2.pub',
    '--service-account-lookup=false',
    '--service-account-max-token-expiration=24h',
    '--requestheader-client-ca-file=/front.crt',
    '--requestheader-username-headers=X-Remote-User',
    '--requestheader-group-headers=X-Remote-Group',
    '--requestheader-extra-headers-prefix=X-Remote-Extra-',
    '--requestheader-allowed-names=front-proxy',
    '--proxy-client-cert-file=/proxy.crt',
    '--proxy-client-key-file=/proxy.key',
    '--enable-aggregator-routing=false',
    '--enable-bootstrap-token-auth',
    '--authentication-token-webhook-config-file=/webhook.yaml',
    '--authentication-token-webhook-version=v1',
    '--authentication-token-webhook-cache-ttl=30s',
    '--oidc-issuer-url=https://idp',
    '--oidc-client-id=orch',
    '--oidc-ca-file=/idp.crt',
    '--oidc-username-claim=email',
    '--oidc-groups-claim=groups',
    '--oidc-groups-prefix=oidc:',
    '--oidc-required-claim=hd=example.com',
    '--oidc-signing-algs=RS256,ES256',
    '--anonymous-auth=false',
    '--authorization-mode',
    'AlwaysDeny,ABAC,Webhook,AlwaysAllow',
    '--authorization-policy-file=/abac.jsonl',
    '--authorization-webhook-config-file',
    '/webhook.kubeconfig',
    '--authorization-webhook-version=v1',
    '--authorization-webhook-cache-authorized-ttl=1m',
    '--authorization-webhook-cache-unauthorized-ttl',
    '5s',
    '--api-domain=example.com',
    '--shutdown-delay-duration',
    '10s',
    '--livez-grace-period=500ms',
    '--max-request-bytes',
    '1024',
    '--min-request-timeout=60',
    '--event-ttl=30m',
    '--request-timeout',
    '2m',
    '--v=4',
    '--service-cluster-ip-range',
    '10.96.0.0/16,fd00::/108',
    '--service-node-port-range=20000-20999',
    '--watch-cache=false',
    '--console=false',
    '--default-watch-cache-size',
    '500',
    '--enable-admission-plugins=AlwaysPullImages,NamespaceExists',
    '--disable-admission-plugins',
    'Priority',
    '--admission-control-config-file=/admission.yaml',
    '--default-not-ready-toleration-seconds=30',
    '--default-unreachable-toleration-seconds',
    '40',
    '--workers=3',
    '--max-requests-inflight=10',
    '--max-mutating-requests-inflight',
    '5',
    '--enable-priority-and-fairness=false',
    '--max-watches-per-user=7',
    '--audit-policy-file=/policy.yaml',
    '--audit-log-path',
    '/audit.log',
    '--audit-log-maxsize=100',
    '--audit-log-maxbackup=3',
    '--audit-log-maxage',
    '7',
    '--audit-log-format=json',
    '--audit-webhook-config-file=/audit.kubeconfig',
    '--audit-webhook-mode=batch',
    '--audit-webhook-batch-max-size=10',
    '--audit-webhook-batch-max-wait=1s',
    '--audit-webhook-initial-backoff',
    '2s',
    '--runtime-config=apps/v1=false,api/beta=true,batch/v1',
    '--runtime-config',
    'batch/v1/jobs=false',
    '--feature-gates=APIListChunking=false,ServerSideApply=true',
    '--show-hidden-metrics-for-version=1.27',
  ]);
  assert.equal(featureGates.enabled('APIListChunking'), false);
  assert.deepEqual(o, {
    etcdServers: ['http://a:2379', 'https://b:2379'],
    etcdPrefix: '/orch',
    etcdCompactionIntervalMs: 90 * 60_000,
    historyRetentionMs: 2 * 60 * 60_000,
    historyRetentionMaxRevisions: 5000,
    historyRetentionMaxBytes: 1_073_741_824,
    storageBackend: 'etcd3',
    encryptionProviderConfig: '/encryption.yaml',
    dataDir: '/var/lib/orch',
    securePort: 8443,
    bindAddress: '127.0.0.1',
    tlsCertFile: '/c.crt',
    tlsPrivateKeyFile: '/c.key',
    certDir: '/certs',
    clientCAFile: '/ca.crt',
    tokenAuthFile: '/tokens.csv',
    serviceAccountIssuers: ['https://a', 'https://b'],
    serviceAccountSigningKeyFile: '/sa.key',
    serviceAccountKeyFiles: ['/sa1.pub', '/sa2.pub'],
    serviceAccountLookup: false,
    apiAudiences: ['https://a', 'https://b'],
    serviceAccountMaxTokenExpirationSeconds: 86_400,
    requestHeader: {
      clientCAFile: '/front.crt',
      usernameHeaders: ['X-Remote-User'],
      groupHeaders: ['X-Remote-Group'],
      extraHeaderPrefixes: ['X-Remote-Extra-'],
      allowedNames: ['front-proxy'],
    },
    bootstrapTokenAuth: true,
    tokenWebhook: { configFile: '/webhook.yaml', version: 'v1', cacheTtlMs: 30_000 },
    oidc: {
      issuerURL: 'https://idp',
      clientID: 'orch',
      caFile: '/idp.crt',
      usernameClaim: 'email',
      usernamePrefix: undefined,
      groupsClaim: 'groups',
      groupsPrefix: 'oidc:',
      requiredClaims: { hd: 'example.com' },
      signingAlgs: ['RS256', 'ES256'],
    },
    anonymousAuth: false,
    authorizationModes: ['AlwaysDeny', 'ABAC', 'Webhook', 'AlwaysAllow'],
    authorizationPolicyFile: '/abac.jsonl',
    authorizationWebhookConfigFile: '/webhook.kubeconfig',
    authorizationWebhookVersion: 'v1',
    authorizationWebhookCacheAuthorizedTtlMs: 60_000,
    authorizationWebhookCacheUnauthorizedTtlMs: 5_000,
    apiDomain: 'example.com',
    shutdownDelayMs: 10_000,
    livezGracePeriodMs: 500,
    maxRequestBytes: 1024,
    maxRequestsInflight: 10,
    maxMutatingRequestsInflight: 5,
    enablePriorityAndFairness: false,
    minRequestTimeoutSeconds: 60,
    maxWatchesPerUser: 7,
    requestTimeoutMs: 120_000,
    eventTtlMs: 1_800_000,
    logLevel: 'debug',
    serviceClusterIPRanges: ['10.96.0.0/16', 'fd00::/108'],
    serviceNodePortRange: { base: 20000, size: 1000 },
    watchCache: false,
    console: false,
    workers: 3,
    defaultWatchCacheSize: 500,
    kubeletPort: 10250,
    controllerManagerPort: 10257,
    kubeletPreferredAddressTypes: ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'],
    kubeletClientCertificate: undefined,
    kubeletClientKey: undefined,
    kubeletCertificateAuthority: undefined,
    kubeletTimeoutMs: 5000,
    admission: { enablePlugins: ['AlwaysPullImages', 'NamespaceExists'], disablePlugins: ['Priority'], configFile: '/admission.yaml' },
    admissionFlags: { defaultNotReadyTolerationSeconds: 30, defaultUnreachableTolerationSeconds: 40 },
    audit: {
      policyFile: '/policy.yaml',
      logPath: '/audit.log',
      logMaxSizeMB: 100,
      logMaxBackups: 3,
      logMaxAgeDays: 7,
      webhookConfigFile: '/audit.kubeconfig',
      webhookBatchMaxSize: 10,
      webhookBatchMaxWaitMs: 1000,
      webhookInitialBackoffMs: 2000,
    },
    aggregator: { proxyClientCertFile: '/proxy.crt', proxyClientKeyFile: '/proxy.key', enableAggregatorRouting: false },
    runtimeConfig: new Map([
      ['apps/v1', 'false'],
      ['api/beta', 'true'],
      ['batch/v1', ''],
      ['batch/v1/jobs', 'false'],
    ]),
    featureGateWarnings: ['Setting GA feature gate ServerSideApply=true. It will be removed in a future release.'],
    showHiddenMetricsForVersion: '1.27',
  });
});

test('service-account flags: audiences default to the issuers; a signing key needs an issuer; expiration bounds', () => {
  assert.deepEqual(parseServerOptions(['--service-account-issuer=https://a', '--api-audiences=x,y']).apiAudiences, ['x', 'y']);
  fails(['--service-account-signing-key-file=/k'], '--service-account-signing-key-file requires --service-account-issuer');
  fails(['--service-account-max-token-expiration=30m'], 'the service-account-max-token-expiration must be between 1 hour and 2^32 seconds');
});

test('cert dir follows the data dir unless given', () => {
  assert.equal(parseServerOptions(['--data-dir', '/tmp/x']).certDir, '/tmp/x/certs');
});

test('booleans: bare flag is true, =false and Go spellings work, a bad value fails', () => {
  assert.equal(parseServerOptions(['--anonymous-auth']).anonymousAuth, true);
  assert.equal(parseServerOptions(['--anonymous-auth=0']).anonymousAuth, false);
  assert.equal(parseServerOptions(['--anonymous-auth=F']).anonymousAuth, false);
  fails(
    ['--anonymous-auth=maybe'],
    'invalid argument "maybe" for "--anonymous-auth" flag: strconv.ParseBool: parsing "maybe": invalid syntax',
  );
});

test('list flags accumulate when repeated; the last scalar wins', () => {
  const o = parseServerOptions(['--etcd-servers=http://a:1', '--etcd-servers', 'http://b:1', '--secure-port=1', '--secure-port=2']);
  assert.deepEqual(o.etcdServers, ['http://a:1', 'http://b:1']);
  assert.equal(o.securePort, 2);
});

test('-v, --v and verbosity levels', () => {
  assert.equal(parseServerOptions(['-v', '2']).logLevel, 'verbose');
  assert.equal(parseServerOptions(['-v=6']).logLevel, 'silly');
  assert.equal(parseServerOptions(['-v5']).logLevel, 'debug');
  assert.equal(parseServerOptions(['--v', '1']).logLevel, 'info');
  fails(['--v=11'], '--v 11 must be between 0 and 10, inclusive');
});

test('unknown flags and stray arguments', () => {
  fails(['--etcd-server=http://a:1'], 'unknown flag: --etcd-server');
  fails(['-x'], "unknown shorthand flag: 'x' in -x");
  fails(['serve'], '"orch-apiserver" does not take any arguments, got ["serve"]');
  fails(['--etcd-prefix'], 'flag needs an argument: --etcd-prefix');
});

test('bad durations are reported with Go messages', () => {
  fails(['--request-timeout=5'], 'invalid argument "5" for "--request-timeout" flag: time: missing unit in duration "5"');
  fails(['--request-timeout=5x'], 'invalid argument "5x" for "--request-timeout" flag: time: unknown unit "x" in duration "5x"');
  fails(['--livez-grace-period=soon'], 'invalid argument "soon" for "--livez-grace-period" flag: time: invalid duration "soon"');
  fails(['--shutdown-delay-duration=-1s'], '--shutdown-delay-duration can not be negative value');
});

test('bad ports, addresses and numbers', () => {
  fails(['--secure-port=70000'], /^--secure-port 70000 must be between 0 and 65535, inclusive/);
  fails(['--secure-port=http'], 'invalid argument "http" for "--secure-port" flag: strconv.ParseInt: parsing "http": invalid syntax');
  fails(['--secure-port=-1'], /^--secure-port -1 must be between 0 and 65535/);
  assert.equal(parseServerOptions(['--secure-port=0']).securePort, 0);
  assert.equal(parseServerOptions(['--controller-manager-port=41001']).controllerManagerPort, 41001);
  fails(['--controller-manager-port=0'], '--controller-manager-port 0 must be between 1 and 65535, inclusive');
  fails(['--bind-address=localhost'], 'invalid argument "localhost" for "--bind-address" flag: failed to parse IP: "localhost"');
  fails(['--min-request-timeout=-5'], '--min-request-timeout can not be negative value');
  fails(['--event-ttl=-1s'], '--event-ttl can not be negative value');
  fails(['--max-request-bytes=1MB'], /invalid argument "1MB" for "--max-request-bytes" flag/);
});

test('watch cache flags', () => {
  assert.equal(parseServerOptions(['--watch-cache']).watchCache, true);
  assert.equal(parseServerOptions(['--default-watch-cache-size=0']).defaultWatchCacheSize, 0);
  fails(
    ['--watch-cache=sometimes'],
    'invalid argument "sometimes" for "--watch-cache" flag: strconv.ParseBool: parsing "sometimes": invalid syntax',
  );
  fails(['--default-watch-cache-size=-1'], '--default-watch-cache-size can not be negative value');
  fails(['--workers=0'], '--workers must be at least 1');
  fails(
    ['--default-watch-cache-size=lots'],
    'invalid argument "lots" for "--default-watch-cache-size" flag: strconv.ParseInt: parsing "lots": invalid syntax',
  );
  assert.match(usage(), /^ {6}--watch-cache +Enable watch caching in the apiserver \(default true\)$/m);
  assert.match(usage(), /^ {6}--default-watch-cache-size int +The most changes .*\(default 10000\)$/m);
});

test('service network flags: ranges checked with kube-apiserver messages', () => {
  assert.deepEqual(parseServerOptions(['--service-cluster-ip-range=']).serviceClusterIPRanges, ['10.0.0.0/24']);
  assert.deepEqual(parseServerOptions(['--service-cluster-ip-range=fd00::1/112']).serviceClusterIPRanges, ['fd00::/112']);
  assert.deepEqual(parseServerOptions(['--service-node-port-range=30000+99']).serviceNodePortRange, { base: 30000, size: 100 });
  assert.deepEqual(parseServerOptions(['--service-node-port-range=']).serviceNodePortRange, { base: 30000, size: 2768 });
  fails(['--service-cluster-ip-range=10.0.0.0'], 'service-cluster-ip-range[0] is not a valid cidr');
  fails(
    ['--service-cluster-ip-range=10.0.0.0/24,10.1.0.0/24'],
    '--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family',
  );
  fails(
    ['--service-cluster-ip-range=10.0.0.0/24,fd00::/112,fd01::/112'],
    '--service-cluster-ip-range must not contain more than two entries',
  );
  fails(
    ['--service-cluster-ip-range=10.0.0.0/30'],
    'error determining service IP ranges for primary service cidr: the service cluster IP range must be at least 8 IP addresses',
  );
  fails(
    ['--service-cluster-ip-range=10.0.0.0/8'],
    'specified --service-cluster-ip-range is too large; for 32-bit addresses, the mask must be >= 12',
  );
  fails(
    ['--service-node-port-range=30000-x'],
    'invalid argument "30000-x" for "--service-node-port-range" flag: strconv.Atoi: parsing "x": invalid syntax',
  );
  fails(
    ['--service-node-port-range=32767-30000'],
    'invalid argument "32767-30000" for "--service-node-port-range" flag: end port cannot be less than start port: 32767-30000',
  );
  fails(
    ['--service-node-port-range=60000-70000'],
    'invalid argument "60000-70000" for "--service-node-port-range" flag: the port range cannot be greater than 65535: 60000-70000',
  );
  assert.match(usage(), /^ {6}--service-cluster-ip-range string +A CIDR notation IP range .* \(default "10\.0\.0\.0\/24"\)$/m);
  assert.match(usage(), /^ {6}--service-node-port-range portRange +A port range to reserve .* \(default 30000-32767\)$/m);
});

test('authorization modes', () => {
  fails(['--authorization-mode=Foo'], 'authorization-mode "Foo" is not a valid mode');
  assert.deepEqual(parseServerOptions(['--authorization-mode=AlwaysDeny,RBAC']).authorizationModes, ['AlwaysDeny', 'RBAC']);
  fails(['--authorization-mode=ABAC'], "authorization-mode ABAC's authorization policy file not passed");
  fails(['--authorization-policy-file=p.jsonl'], 'cannot specify --authorization-policy-file without mode ABAC');
  fails(['--authorization-mode=Webhook'], "authorization-mode Webhook's authorization config file not passed");
  fails(['--authorization-webhook-config-file=w.yaml'], 'cannot specify --authorization-webhook-config-file without mode Webhook');
  fails(
    ['--authorization-mode=Webhook', '--authorization-webhook-config-file=w', '--authorization-webhook-version=v2'],
    /must be v1 or v1beta1/,
  );
  const webhook = parseServerOptions(['--authorization-mode=Node,Webhook,RBAC', '--authorization-webhook-config-file=w.yaml']);
  assert.equal(webhook.authorizationWebhookVersion, 'v1beta1');
  assert.equal(webhook.authorizationWebhookCacheAuthorizedTtlMs, 300_000);
  assert.equal(webhook.authorizationWebhookCacheUnauthorizedTtlMs, 30_000);
  fails(['--authorization-mode=AlwaysAllow,AlwaysAllow'], 'authorization-mode "AlwaysAllow" has mode specified more than once');
  fails(['--authorization-mode='], 'at least one authorization-mode must be passed');
});

test('storage backend agrees with --etcd-servers', () => {
  assert.equal(parseServerOptions(['--etcd-servers=http://127.0.0.1:2379']).storageBackend, 'etcd3');
  assert.equal(parseServerOptions(['--storage-backend=sqlite']).storageBackend, 'sqlite');
  fails(['--storage-backend=etcd3'], '--etcd-servers must be specified when --storage-backend=etcd3');
  fails(
    ['--storage-backend=sqlite', '--etcd-servers=http://127.0.0.1:2379'],
    '--storage-backend=sqlite cannot be used with --etcd-servers',
  );
  fails(['--storage-backend=etcd2'], /^--storage-backend invalid, allowed values: etcd3, sqlite/);
  fails(['--etcd-servers=127.0.0.1:2379'], /^--etcd-servers: "127.0.0.1:2379" is not an http/);
});

test('TLS files come together', () => {
  fails(['--tls-cert-file=/a.crt'], '--tls-cert-file and --tls-private-key-file must be specified together');
  fails(['--tls-private-key-file=/a.key'], '--tls-cert-file and --tls-private-key-file must be specified together');
});

test('api domain must be a DNS subdomain', () => {
  assert.equal(parseServerOptions(['--api-domain=corp.example']).apiDomain, 'corp.example');
  fails(['--api-domain=Orch.IO'], /^--api-domain "Orch.IO": a lowercase RFC 1123 subdomain/);
  fails(['--api-domain=-orch.io'], /RFC 1123/);
});

test('help', () => {
  assert.equal(helpRequested([]), false);
  assert.equal(helpRequested(['--secure-port=1', '--help']), true);
  assert.equal(helpRequested(['-h']), true);
  assert.throws(() => helpRequested(['--nope', '--help']), OptionsError);
  const text = usage();
  assert.match(text, /^Usage:\n {2}orch-apiserver \[flags\]$/m);
  assert.match(text, /^ {6}--etcd-servers strings +List of etcd servers/m);
  assert.match(text, /--etcd-compaction-interval duration .*\(default 5m0s\)$/m);
  assert.match(text, /--etcd-prefix string +.*\(default "\/registry"\)$/m);
  assert.match(text, /--anonymous-auth +Enables anonymous requests.*\(default true\)$/m);
  assert.match(text, /^ {2}-v, --v int +number for the log level verbosity \(0\.\.10\)$/m);
});
