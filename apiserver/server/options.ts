/**
 * orch-apiserver's flag table (kube-apiserver's ServerRunOptions): one field per flag, the flags
 * added to a component-base flag set, validated with kube-apiserver's messages and completed into
 * the ServerOptions the server runs with.
 */
import { DEFAULT_PREFERRED_ADDRESS_TYPES } from '../registry/core/connect-location.js';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { Command, type ComponentOptions } from '../component-base/cli/command.js';
import { checkPort } from '../component-base/flag/checks.js';
import type { FlagSet } from '../component-base/flag/flag-set.js';
import { OptionsError } from '../component-base/flag/options-error.js';
import { configurationMapValue, scalarValue } from '../component-base/flag/values.js';
import { newApiDomain } from '../api/domain.js';
import { newResourceTable } from '../api/resource-table.js';
import { servedResources } from '../api/runtime-config.js';
import { allResources } from '../registry/resources/index.js';
import { LogOptions } from '../component-base/logs/log-options.js';
import { MetricsOptions } from '../component-base/metrics/metrics-options.js';
import { FeatureGateOptions, type FeatureGates } from '../component-base/featuregate/orch-features.js';
import { AuthenticationOptions, type AuthenticationSettings } from './authentication-options.js';
import { AuditOptions, type AuditSettings } from './audit-options.js';
import { AUTHORIZATION_MODES, type AuthorizationMode } from '../authorization/interfaces.js';
import { DEFAULT_SERVICE_CLUSTER_IP_RANGE, parseServiceClusterIPRanges } from '../registry/core/service/allocator/service-cidrs.js';
import { formatPortRange, parsePortRange, type PortRange } from '../registry/core/service/allocator/port-range.js';
import { type AdmissionOptions, validateAdmissionOptions } from '../admission/new-admission.js';
import type { AdmissionFlags } from '../admission/interfaces.js';
import { defaultOnPlugins, registeredPlugins } from '../admission/plugin-table.js';

/** What orch-apiserver runs with: its flags, validated and completed. */
export interface ServerOptions extends AuthenticationSettings {
  /** --etcd-servers (comma list of URLs); empty → embedded store. */
  etcdServers: string[];
  /** --etcd-prefix, default "/registry". */
  etcdPrefix: string;
  /** --etcd-compaction-interval, default 5m; 0 disables. */
  etcdCompactionIntervalMs: number;
  /** --history-retention, default 24h: compaction keeps this much history, the revision ledger records each write; 0: off. */
  historyRetentionMs: number;
  /** --history-retention-max-revisions, default 1,000,000: the size bound, at most this many revisions kept. */
  historyRetentionMaxRevisions: number;
  /** --storage-backend; etcd3 when --etcd-servers is set, else sqlite. */
  storageBackend: 'etcd3' | 'sqlite';
  /** --data-dir, default "./data"; the embedded store lives in <dataDir>/state.db. */
  dataDir: string;
  /** --secure-port, default 6443; 0 picks a free port. */
  securePort: number;
  /** --bind-address, default "0.0.0.0". */
  bindAddress: string;
  /** --tls-cert-file (given together with tlsPrivateKeyFile or not at all). */
  tlsCertFile?: string;
  /** --tls-private-key-file. */
  tlsPrivateKeyFile?: string;
  /** --cert-dir, default "<dataDir>/certs": where the self-signed serving cert goes when no TLS files are given. */
  certDir: string;
  /** --client-ca-file: enables x509 client-certificate authentication. */
  clientCAFile?: string;
  /** --token-auth-file: enables static bearer-token authentication. */
  tokenAuthFile?: string;
  /** --anonymous-auth, default true. */
  anonymousAuth: boolean;
  /** --authorization-mode, default [AlwaysAllow]. */
  authorizationModes: AuthorizationMode[];
  /** --authorization-policy-file (ABAC). */
  authorizationPolicyFile?: string;
  /** --authorization-webhook-config-file (Webhook). */
  authorizationWebhookConfigFile?: string;
  /** --authorization-webhook-version: v1beta1 (default) or v1. */
  authorizationWebhookVersion: 'v1' | 'v1beta1';
  /** --authorization-webhook-cache-authorized-ttl, default 5m. */
  authorizationWebhookCacheAuthorizedTtlMs: number;
  /** --authorization-webhook-cache-unauthorized-ttl, default 30s. */
  authorizationWebhookCacheUnauthorizedTtlMs: number;
  /** --api-domain, default "orch.io": API groups are named <group>.<apiDomain>. */
  apiDomain: string;
  /** --shutdown-delay-duration, default 0. */
  shutdownDelayMs: number;
  /** --livez-grace-period, default 0. */
  livezGracePeriodMs: number;
  /** --max-request-bytes, default 3145728. */
  maxRequestBytes: number;
  /** --max-requests-inflight, default 400: read-only requests served at once (0 = no limit). */
  maxRequestsInflight: number;
  /** --max-mutating-requests-inflight, default 200: mutating requests served at once (0 = no limit). */
  maxMutatingRequestsInflight: number;
  /** --min-request-timeout in seconds, default 1800 (bounds watch timeouts). */
  minRequestTimeoutSeconds: number;
  /** --max-watches-per-user, default 1000: watches one user may hold open on one worker (0 = no limit). */
  maxWatchesPerUser: number;
  /** --request-timeout, default 60s. */
  requestTimeoutMs: number;
  /** --event-ttl, default 1h: Events are deleted this long after their last write. */
  eventTtlMs: number;
  /** The winston level that -v/--v (0..10, default 0) maps to. */
  logLevel: string;
  /** --service-cluster-ip-range, default 10.0.0.0/24: one CIDR, or two of different IP families (the first is the default family). */
  serviceClusterIPRanges: string[];
  /** --service-node-port-range, default 30000-32767. */
  serviceNodePortRange: PortRange;
  /** --watch-cache, default true: lists, gets and watches are served from memory. */
  watchCache: boolean;
  /** --workers, default the number of CPUs: worker processes serving the port, each a replica (server/workers.ts). */
  workers: number;
  /** --default-watch-cache-size, default 10000: the most changes a resource's watch cache keeps; 0 disables the cache. */
  defaultWatchCacheSize: number;
  /** --kubelet-port, default 10250: the node agent port when a Node does not publish one. */
  kubeletPort: number;
  /**
   * --controller-manager-port, default 10257 (orch's own): where ComponentStatus probes the local
   * controller manager, https://127.0.0.1:<port>/healthz; kube-apiserver always probes 10257.
   */
  controllerManagerPort: number;
  /** --kubelet-preferred-address-types: the Node address types to reach node agents by, in order. */
  kubeletPreferredAddressTypes: string[];
  /** --kubelet-client-certificate / --kubelet-client-key: the client certificate shown to node agents. */
  kubeletClientCertificate?: string;
  kubeletClientKey?: string;
  /** --kubelet-certificate-authority: verifies node agents' serving certificates (none: not verified). */
  kubeletCertificateAuthority?: string;
  /** --kubelet-timeout, default 5s: how long a node agent or proxied backend may take to accept a connection. */
  kubeletTimeoutMs: number;
  /** --enable-admission-plugins, --disable-admission-plugins, --admission-control-config-file. */
  admission: AdmissionOptions;
  /** --default-not-ready-toleration-seconds, --default-unreachable-toleration-seconds (default 300 each). */
  admissionFlags: AdmissionFlags;
  /** --audit-*. */
  audit: AuditSettings;
  /** --runtime-config: which group versions and resources are served (api/runtime-config.ts). */
  runtimeConfig: ReadonlyMap<string, string>;
  /** --feature-gates. */
  featureGates: FeatureGates;
  /** What setting GA or deprecated gates warned. */
  featureGateWarnings: string[];
  /** --show-hidden-metrics-for-version ('' = none). */
  showHiddenMetricsForVersion: string;
}

const DEFAULT_NODE_PORT_RANGE = '30000-32767';

/** A port range flag ("30000-32767", "30000+2767", "30000"); empty means the default. */
const portRangeValue = scalarValue<PortRange>(
  'portRange',
  (raw) => parsePortRange(raw.trim() === '' ? DEFAULT_NODE_PORT_RANGE : raw),
  formatPortRange,
  () => false,
);

/** orch-apiserver's flags, each field holding its flag's value. */
export class ServerRunOptions implements ComponentOptions<ServerOptions> {
  etcdServers: string[] = [];
  etcdPrefix = '/registry';
  etcdCompactionIntervalMs = 5 * 60_000;
  historyRetentionMs = 24 * 60 * 60_000;
  historyRetentionMaxRevisions = 1_000_000;
  storageBackend = '';
  dataDir = './data';
  securePort = 6443;
  bindAddress = '0.0.0.0';
  tlsCertFile = '';
  tlsPrivateKeyFile = '';
  certDir = '';
  clientCAFile = '';
  tokenAuthFile = '';
  anonymousAuth = true;
  authorizationModes: string[] = ['AlwaysAllow'];
  authorizationPolicyFile = '';
  authorizationWebhookConfigFile = '';
  authorizationWebhookVersion = 'v1beta1';
  authorizationWebhookCacheAuthorizedTtlMs = 5 * 60_000;
  authorizationWebhookCacheUnauthorizedTtlMs = 30_000;
  apiDomain = 'orch.io';
  shutdownDelayMs = 0;
  livezGracePeriodMs = 0;
  maxRequestBytes = 3145728;
  maxRequestsInflight = 400;
  maxMutatingRequestsInflight = 200;
  minRequestTimeoutSeconds = 1800;
  maxWatchesPerUser = 1000;
  requestTimeoutMs = 60_000;
  eventTtlMs = 60 * 60_000;
  watchCache = true;
  workers = availableParallelism();
  defaultWatchCacheSize = 10_000;
  serviceClusterIPRange = DEFAULT_SERVICE_CLUSTER_IP_RANGE;
  serviceNodePortRange = parsePortRange(DEFAULT_NODE_PORT_RANGE);
  kubeletPort = 10250;
  controllerManagerPort = 10257;
  kubeletPreferredAddressTypes = [...DEFAULT_PREFERRED_ADDRESS_TYPES];
  kubeletClientCertificate = '';
  kubeletClientKey = '';
  kubeletCertificateAuthority = '';
  kubeletTimeoutMs = 5000;
  enableAdmissionPlugins: string[] = [];
  disableAdmissionPlugins: string[] = [];
  admissionControlConfigFile = '';
  defaultNotReadyTolerationSeconds = 300;
  defaultUnreachableTolerationSeconds = 300;
  readonly logs = new LogOptions();
  readonly metrics = new MetricsOptions();
  readonly features = new FeatureGateOptions();
  readonly authentication = new AuthenticationOptions();
  readonly audit = new AuditOptions();
  runtimeConfig = new Map<string, string>();

  addFlags(fs: FlagSet): void {
    fs.strings(
      this,
      'etcdServers',
      'etcd-servers',
      'List of etcd servers to connect with (scheme://ip:port), comma separated. Empty runs on the embedded store.',
    );
    fs.string(this, 'etcdPrefix', 'etcd-prefix', 'The prefix to prepend to all resource paths in etcd.');
    fs.duration(
      this,
      'etcdCompactionIntervalMs',
      'etcd-compaction-interval',
      'The interval of compaction requests. If 0, the compaction request from apiserver is disabled.',
    );
    fs.duration(
      this,
      'historyRetentionMs',
      'history-retention',
      'How long history is kept: compaction keeps younger revisions and every write records who made it (the history subresource). 0 disables.',
    );
    fs.int(
      this,
      'historyRetentionMaxRevisions',
      'history-retention-max-revisions',
      'The most revisions compaction keeps, however young (the size bound of --history-retention).',
    );
    fs.string(
      this,
      'storageBackend',
      'storage-backend',
      "The storage backend for persistence. Options: 'etcd3', 'sqlite'. Defaults to 'etcd3' when --etcd-servers is set, else 'sqlite'.",
    );
    fs.string(this, 'dataDir', 'data-dir', 'The directory of the embedded store (state.db) and, by default, of generated certificates.');
    fs.int(
      this,
      'securePort',
      'secure-port',
      'The port on which to serve HTTPS with authentication and authorization. 0 picks a free port.',
    );
    fs.ip(this, 'bindAddress', 'bind-address', 'The IP address on which to listen for the --secure-port port.');
    fs.string(
      this,
      'tlsCertFile',
      'tls-cert-file',
      'File containing the default x509 certificate for HTTPS (CA cert, if any, concatenated after server cert). If neither this nor --tls-private-key-file is given, a self-signed certificate and key are generated in --cert-dir.',
    );
    fs.string(this, 'tlsPrivateKeyFile', 'tls-private-key-file', 'File containing the default x509 private key matching --tls-cert-file.');
    fs.string(
      this,
      'certDir',
      'cert-dir',
      'The directory where the TLS certs are located. If --tls-cert-file and --tls-private-key-file are provided, this flag will be ignored. Defaults to <data-dir>/certs.',
    );
    fs.string(
      this,
      'clientCAFile',
      'client-ca-file',
      'If set, any request presenting a client certificate signed by one of the authorities in the client-ca-file is authenticated with an identity corresponding to the CommonName of the client certificate.',
    );
    fs.string(
      this,
      'tokenAuthFile',
      'token-auth-file',
      'If set, the file that will be used to secure the secure port of the API server via token authentication.',
    );
    fs.bool(
      this,
      'anonymousAuth',
      'anonymous-auth',
      'Enables anonymous requests to the secure port of the API server. Requests that are not rejected by another authentication method are treated as anonymous requests. Anonymous requests have a username of system:anonymous, and a group name of system:unauthenticated.',
    );
    this.authentication.addFlags(fs);
    fs.strings(
      this,
      'authorizationModes',
      'authorization-mode',
      `Ordered list of plug-ins to do authorization on secure port. Comma-delimited list of: ${AUTHORIZATION_MODES.join(',')}.`,
    );
    fs.string(
      this,
      'authorizationPolicyFile',
      'authorization-policy-file',
      'File with authorization policy in json line by line format, used with --authorization-mode=ABAC, on the secure port.',
    );
    fs.string(
      this,
      'authorizationWebhookConfigFile',
      'authorization-webhook-config-file',
      "File with webhook configuration in kubeconfig format, used with --authorization-mode=Webhook. The API server will query the remote service to determine access on the API server's secure port.",
    );
    fs.string(
      this,
      'authorizationWebhookVersion',
      'authorization-webhook-version',
      'The API version of the authorization.k8s.io SubjectAccessReview to send to and expect from the webhook.',
    );
    fs.duration(
      this,
      'authorizationWebhookCacheAuthorizedTtlMs',
      'authorization-webhook-cache-authorized-ttl',
      "The duration to cache 'authorized' responses from the webhook authorizer.",
    );
    fs.duration(
      this,
      'authorizationWebhookCacheUnauthorizedTtlMs',
      'authorization-webhook-cache-unauthorized-ttl',
      "The duration to cache 'unauthorized' responses from the webhook authorizer.",
    );
    fs.string(this, 'apiDomain', 'api-domain', 'The DNS suffix of built-in API group names (e.g. apps.<api-domain>).');
    fs.duration(
      this,
      'shutdownDelayMs',
      'shutdown-delay-duration',
      'Time to delay the termination. During that time the server keeps serving requests normally. The endpoints /healthz and /livez will return success, but /readyz immediately returns failure.',
    );
    fs.duration(
      this,
      'livezGracePeriodMs',
      'livez-grace-period',
      "This option represents the maximum amount of time it should take for apiserver to complete its startup sequence and become live. From apiserver's start time to when this amount of time has elapsed, /livez will assume that unfinished post-start hooks will complete successfully and therefore return true.",
    );
    fs.int(this, 'maxRequestBytes', 'max-request-bytes', 'The limit on the request body size that will be accepted by the API server.');
    fs.int(
      this,
      'maxRequestsInflight',
      'max-requests-inflight',
      'The maximum number of non-mutating requests in flight (watches and other long-running requests apart), or a zero value disables the limit completely. Requests beyond it are answered 429 with Retry-After.',
    );
    fs.int(
      this,
      'maxMutatingRequestsInflight',
      'max-mutating-requests-inflight',
      'The maximum number of mutating requests in flight, or a zero value disables the limit completely. Requests beyond it are answered 429 with Retry-After.',
    );
    fs.int(
      this,
      'maxWatchesPerUser',
      'max-watches-per-user',
      'The maximum number of watches one user may hold open on one worker process (system:masters apart), or a zero value disables the limit. Watches beyond it are answered 429 with Retry-After.',
    );
    fs.int(
      this,
      'minRequestTimeoutSeconds',
      'min-request-timeout',
      'An optional field indicating the minimum number of seconds a handler must keep a request open before timing it out. Currently only honored by the watch request handler, which picks a randomized value above this number as the connection timeout, to spread out load.',
    );
    fs.duration(
      this,
      'requestTimeoutMs',
      'request-timeout',
      'An optional field indicating the duration a handler must keep a request open before timing it out. This is the default request timeout for requests but may be overridden by flags such as --min-request-timeout for specific types of requests.',
    );
    fs.duration(this, 'eventTtlMs', 'event-ttl', 'Amount of time to retain events.');
    fs.bool(this, 'watchCache', 'watch-cache', 'Enable watch caching in the apiserver');
    fs.int(
      this,
      'workers',
      'workers',
      'The number of worker processes serving the secure port, each a replica of the API server with its own watch cache; 1 serves from this process alone. On the embedded store the first process owns the file and the others reach it through it.',
    );
    fs.int(this, 'kubeletPort', 'kubelet-port', 'DEPRECATED: kubelet port.');
    fs.int(
      this,
      'controllerManagerPort',
      'controller-manager-port',
      "The secure port of the local controller manager, whose https://127.0.0.1:<port>/healthz the controller-manager ComponentStatus reports (the controller manager's --secure-port).",
    );
    fs.strings(
      this,
      'kubeletPreferredAddressTypes',
      'kubelet-preferred-address-types',
      'List of the preferred NodeAddressTypes to use for kubelet connections.',
    );
    fs.string(this, 'kubeletClientCertificate', 'kubelet-client-certificate', 'Path to a client cert file for TLS.');
    fs.string(this, 'kubeletClientKey', 'kubelet-client-key', 'Path to a client key file for TLS.');
    fs.string(this, 'kubeletCertificateAuthority', 'kubelet-certificate-authority', 'Path to a cert file for the certificate authority.');
    fs.duration(this, 'kubeletTimeoutMs', 'kubelet-timeout', 'Timeout for kubelet operations.');
    fs.int(
      this,
      'defaultWatchCacheSize',
      'default-watch-cache-size',
      "The most changes a resource's watch cache keeps (it keeps those of the last 5 minutes, up to this many). If zero, the watch cache is disabled.",
    );
    fs.string(
      this,
      'serviceClusterIPRange',
      'service-cluster-ip-range',
      'A CIDR notation IP range from which to assign service cluster IPs. This must not overlap with any IP ranges assigned to nodes or pods. Max of two dual-stack CIDRs is allowed.',
    );
    fs.var(
      portRangeValue,
      this,
      'serviceNodePortRange',
      'service-node-port-range',
      "A port range to reserve for services with NodePort visibility.  This must not overlap with the ephemeral port range on nodes.  Example: '30000-32767'. Inclusive at both ends of the range.",
    );
    fs.strings(
      this,
      'enableAdmissionPlugins',
      'enable-admission-plugins',
      `admission plugins that should be enabled in addition to default enabled ones (${defaultOnPlugins().join(', ')}). Comma-delimited list of admission plugins: ${registeredPlugins().join(', ')}. The order of plugins in this flag does not matter.`,
    );
    fs.strings(
      this,
      'disableAdmissionPlugins',
      'disable-admission-plugins',
      `admission plugins that should be disabled although they are in the default enabled plugins list (${defaultOnPlugins().join(', ')}). Comma-delimited list of admission plugins: ${registeredPlugins().join(', ')}. The order of plugins in this flag does not matter.`,
    );
    fs.string(this, 'admissionControlConfigFile', 'admission-control-config-file', 'File with admission control configuration.');
    fs.int(
      this,
      'defaultNotReadyTolerationSeconds',
      'default-not-ready-toleration-seconds',
      'Indicates the tolerationSeconds of the toleration for notReady:NoExecute that is added by default to every pod that does not already have such a toleration.',
    );
    fs.int(
      this,
      'defaultUnreachableTolerationSeconds',
      'default-unreachable-toleration-seconds',
      'Indicates the tolerationSeconds of the toleration for unreachable:NoExecute that is added by default to every pod that does not already have such a toleration.',
    );
    this.logs.addFlags(fs);
    fs.var(
      configurationMapValue,
      this,
      'runtimeConfig',
      'runtime-config',
      'A set of key=value pairs that enable or disable built-in APIs. Supported options are:\nv1=true|false for the core API group\n<group>/<version>=true|false for a specific API group and version (e.g. apps/v1=true)\n<group>/<version>/<resource>=true|false for one resource of a group version\napi/all=true|false controls all API versions\napi/ga=true|false controls all API versions of the form v[0-9]+\napi/beta=true|false controls all API versions of the form v[0-9]+beta[0-9]+\napi/alpha=true|false controls all API versions of the form v[0-9]+alpha[0-9]+',
    );
    this.audit.addFlags(fs);
    this.metrics.addFlags(fs);
    this.features.addFlags(fs);
  }

  private admissionOptions(): AdmissionOptions {
    return {
      enablePlugins: this.enableAdmissionPlugins,
      disablePlugins: this.disableAdmissionPlugins,
      configFile: this.admissionControlConfigFile,
    };
  }

  validate(): void {
    for (const s of this.etcdServers) {
      if (!/^https?:\/\/[^/]+/.test(s)) throw new OptionsError(`--etcd-servers: ${JSON.stringify(s)} is not an http:// or https:// URL`);
    }
    resolveStorageBackend(this.storageBackend, this.etcdServers.length > 0);
    if (this.dataDir === '') throw new OptionsError('--data-dir must not be empty');
    if (!Number.isInteger(this.workers) || this.workers < 1) throw new OptionsError('--workers must be at least 1');
    checkPort('secure-port', this.securePort);
    if ((this.tlsCertFile === '') !== (this.tlsPrivateKeyFile === '')) {
      throw new OptionsError('--tls-cert-file and --tls-private-key-file must be specified together');
    }
    if (!isDnsSubdomain(this.apiDomain)) {
      throw new OptionsError(
        `--api-domain ${JSON.stringify(this.apiDomain)}: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com')`,
      );
    }
    this.logs.validate();
    this.metrics.validate();
    this.audit.validate();
    try {
      servedResources(newResourceTable(newApiDomain(this.apiDomain), allResources).all(), this.runtimeConfig);
    } catch (err) {
      throw new OptionsError(`--runtime-config: ${(err as Error).message}`);
    }
    nonNegative('etcd-compaction-interval', this.etcdCompactionIntervalMs);
    nonNegative('history-retention', this.historyRetentionMs);
    nonNegative('history-retention-max-revisions', this.historyRetentionMaxRevisions);
    this.authentication.validate();
    validateAuthorizationModes(this.authorizationModes);
    const has = (mode: string) => this.authorizationModes.includes(mode);
    if (has('ABAC') && !this.authorizationPolicyFile)
      throw new OptionsError("authorization-mode ABAC's authorization policy file not passed");
    if (!has('ABAC') && this.authorizationPolicyFile)
      throw new OptionsError('cannot specify --authorization-policy-file without mode ABAC');
    if (has('Webhook') && !this.authorizationWebhookConfigFile)
      throw new OptionsError("authorization-mode Webhook's authorization config file not passed");
    if (!has('Webhook') && this.authorizationWebhookConfigFile) {
      throw new OptionsError('cannot specify --authorization-webhook-config-file without mode Webhook');
    }
    if (this.authorizationWebhookVersion !== 'v1' && this.authorizationWebhookVersion !== 'v1beta1') {
      throw new OptionsError(
        `--authorization-webhook-version must be v1 or v1beta1, got ${JSON.stringify(this.authorizationWebhookVersion)}`,
      );
    }
    nonNegative('authorization-webhook-cache-authorized-ttl', this.authorizationWebhookCacheAuthorizedTtlMs);
    nonNegative('authorization-webhook-cache-unauthorized-ttl', this.authorizationWebhookCacheUnauthorizedTtlMs);
    nonNegative('shutdown-delay-duration', this.shutdownDelayMs);
    nonNegative('livez-grace-period', this.livezGracePeriodMs);
    nonNegative('max-request-bytes', this.maxRequestBytes);
    nonNegative('max-requests-inflight', this.maxRequestsInflight);
    nonNegative('max-mutating-requests-inflight', this.maxMutatingRequestsInflight);
    nonNegative('max-watches-per-user', this.maxWatchesPerUser);
    nonNegative('min-request-timeout', this.minRequestTimeoutSeconds);
    nonNegative('request-timeout', this.requestTimeoutMs);
    nonNegative('event-ttl', this.eventTtlMs);
    serviceClusterIPRanges(this.serviceClusterIPRange);
    nonNegative('default-watch-cache-size', this.defaultWatchCacheSize);
    checkPort('kubelet-port', this.kubeletPort);
    if (this.controllerManagerPort < 1 || this.controllerManagerPort > 65535) {
      throw new OptionsError(`--controller-manager-port ${this.controllerManagerPort} must be between 1 and 65535, inclusive`);
    }
    nonNegative('kubelet-timeout', this.kubeletTimeoutMs);
    if ((this.kubeletClientCertificate === '') !== (this.kubeletClientKey === '')) {
      throw new OptionsError('--kubelet-client-certificate and --kubelet-client-key must be specified together');
    }
    for (const t of this.kubeletPreferredAddressTypes) {
      if (!DEFAULT_PREFERRED_ADDRESS_TYPES.includes(t)) {
        throw new OptionsError(
          `--kubelet-preferred-address-types: ${JSON.stringify(t)} is not one of ${DEFAULT_PREFERRED_ADDRESS_TYPES.join(', ')}`,
        );
      }
    }
    const admissionErrors = validateAdmissionOptions(this.admissionOptions());
    if (admissionErrors.length) throw new OptionsError(admissionErrors.join(', '));
  }

  complete(): ServerOptions {
    return {
      etcdServers: this.etcdServers,
      etcdPrefix: this.etcdPrefix,
      etcdCompactionIntervalMs: this.etcdCompactionIntervalMs,
      historyRetentionMs: this.historyRetentionMs,
      historyRetentionMaxRevisions: this.historyRetentionMaxRevisions,
      storageBackend: resolveStorageBackend(this.storageBackend, this.etcdServers.length > 0),
      dataDir: this.dataDir,
      securePort: this.securePort,
      bindAddress: this.bindAddress,
      tlsCertFile: this.tlsCertFile || undefined,
      tlsPrivateKeyFile: this.tlsPrivateKeyFile || undefined,
      certDir: this.certDir || join(this.dataDir, 'certs'),
      clientCAFile: this.clientCAFile || undefined,
      tokenAuthFile: this.tokenAuthFile || undefined,
      ...this.authentication.complete(),
      anonymousAuth: this.anonymousAuth,
      authorizationModes: this.authorizationModes as AuthorizationMode[],
      authorizationPolicyFile: this.authorizationPolicyFile || undefined,
      authorizationWebhookConfigFile: this.authorizationWebhookConfigFile || undefined,
      authorizationWebhookVersion: this.authorizationWebhookVersion as 'v1' | 'v1beta1',
      authorizationWebhookCacheAuthorizedTtlMs: this.authorizationWebhookCacheAuthorizedTtlMs,
      authorizationWebhookCacheUnauthorizedTtlMs: this.authorizationWebhookCacheUnauthorizedTtlMs,
      apiDomain: this.apiDomain,
      shutdownDelayMs: this.shutdownDelayMs,
      livezGracePeriodMs: this.livezGracePeriodMs,
      maxRequestBytes: this.maxRequestBytes,
      maxRequestsInflight: this.maxRequestsInflight,
      maxMutatingRequestsInflight: this.maxMutatingRequestsInflight,
      minRequestTimeoutSeconds: this.minRequestTimeoutSeconds,
      maxWatchesPerUser: this.maxWatchesPerUser,
      requestTimeoutMs: this.requestTimeoutMs,
      eventTtlMs: this.eventTtlMs,
      logLevel: this.logs.level(),
      serviceClusterIPRanges: serviceClusterIPRanges(this.serviceClusterIPRange),
      serviceNodePortRange: this.serviceNodePortRange,
      watchCache: this.watchCache,
      workers: this.workers,
      defaultWatchCacheSize: this.defaultWatchCacheSize,
      kubeletPort: this.kubeletPort,
      controllerManagerPort: this.controllerManagerPort,
      kubeletPreferredAddressTypes: this.kubeletPreferredAddressTypes,
      kubeletClientCertificate: this.kubeletClientCertificate || undefined,
      kubeletClientKey: this.kubeletClientKey || undefined,
      kubeletCertificateAuthority: this.kubeletCertificateAuthority || undefined,
      kubeletTimeoutMs: this.kubeletTimeoutMs,
      admission: this.admissionOptions(),
      admissionFlags: {
        defaultNotReadyTolerationSeconds: this.defaultNotReadyTolerationSeconds,
        defaultUnreachableTolerationSeconds: this.defaultUnreachableTolerationSeconds,
      },
      audit: this.audit.complete(),
      runtimeConfig: this.runtimeConfig,
      featureGates: this.features.gates,
      featureGateWarnings: this.features.gates.warnings,
      showHiddenMetricsForVersion: this.metrics.showHiddenMetricsForVersion,
    };
  }
}

/** The orch-apiserver command line. */
export const apiserverCommand = new Command<ServerOptions>({
  name: 'orch-apiserver',
  about: [
    'The orch API server validates and configures data for the api objects. The API server',
    "services REST operations and provides the frontend to the cluster's shared state",
    'through which all other components interact.',
  ].join('\n'),
  newOptions: () => new ServerRunOptions(),
});

/** The options of an orch-apiserver command line (without node and the script); throws OptionsError. */
export function parseServerOptions(argv: string[]): ServerOptions {
  return apiserverCommand.options(argv);
}

function nonNegative(name: string, n: number): void {
  if (n < 0) throw new OptionsError(`--${name} can not be negative value`);
}

function resolveStorageBackend(value: string, haveEtcd: boolean): ServerOptions['storageBackend'] {
  switch (value) {
    case '':
      return haveEtcd ? 'etcd3' : 'sqlite';
    case 'etcd3':
      if (!haveEtcd) throw new OptionsError('--etcd-servers must be specified when --storage-backend=etcd3');
      return value;
    case 'sqlite':
      if (haveEtcd) throw new OptionsError('--storage-backend=sqlite cannot be used with --etcd-servers');
      return value;
    default:
      throw new OptionsError(
        "--storage-backend invalid, allowed values: etcd3, sqlite. If not specified, it will default to 'etcd3' when --etcd-servers is set, else 'sqlite'",
      );
  }
}

function validateAuthorizationModes(modes: string[]): void {
  if (modes.length === 0) throw new OptionsError('at least one authorization-mode must be passed');
  const seen = new Set<string>();
  for (const mode of modes) {
    if (!(AUTHORIZATION_MODES as readonly string[]).includes(mode))
      throw new OptionsError(`authorization-mode ${JSON.stringify(mode)} is not a valid mode`);
    if (seen.has(mode)) throw new OptionsError(`authorization-mode ${JSON.stringify(mode)} has mode specified more than once`);
    seen.add(mode);
  }
}

/** --service-cluster-ip-range, checked with kube-apiserver's messages. */
function serviceClusterIPRanges(value: string): string[] {
  try {
    return parseServiceClusterIPRanges(value);
  } catch (err) {
    throw new OptionsError((err as Error).message);
  }
}

function isDnsSubdomain(s: string): boolean {
  return s.length <= 253 && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(s);
}
