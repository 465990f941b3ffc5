/**
 * orch-apiserver's flag table (kube-apiserver's ServerRunOptions): each flag declared once, in a
 * section table (name, type, default, --help, its own check, the README's line), the flags added to
 * a component-base flag set in --help's order, validated with kube-apiserver's messages and completed
 * into the ServerOptions the server runs with. The README's table is generated from these tables.
 */
import { isOneOf } from '../api/object.js';
import { DEFAULT_PREFERRED_ADDRESS_TYPES } from '../registry/core/connect-location.js';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { Command, type ComponentOptions } from '../component-base/cli/command.js';
import { checkPort } from '../component-base/flag/checks.js';
import type { FlagSet } from '../component-base/flag/flag-set.js';
import { checkFlags, flag, flagValues } from '../component-base/flag/flag-table.js';
import { OptionsError } from '../component-base/flag/options-error.js';
import {
  boolValue,
  configurationMapValue,
  durationValue,
  intValue,
  scalarValue,
  stringsValue,
  stringValue,
} from '../component-base/flag/values.js';
import { certDirFlag, securePortFlags, tlsFileFlags } from '../component-base/serving/serving-flags.js';
import { newApiDomain } from '../api/domain.js';
import { newResourceTable } from '../api/resource-table.js';
import { servedResources } from '../api/runtime-config.js';
import { allResources } from '../registry/resources/index.js';
import { LogOptions } from '../component-base/logs/log-options.js';
import { MetricsOptions } from '../component-base/metrics/metrics-options.js';
import { FeatureGateOptions, type FeatureGates } from '../component-base/featuregate/orch-features.js';
import { AuthenticationOptions, type AuthenticationSettings } from './authentication-options.js';
import { AuditOptions, type AuditSettings } from './audit-options.js';
import { AggregatorOptions, type AggregatorSettings } from './aggregator-options.js';
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
  /** --etcd-prefix. */
  etcdPrefix: string;
  /** --etcd-compaction-interval; 0 disables. */
  etcdCompactionIntervalMs: number;
  /** --history-retention: compaction keeps this much history, the revision ledger records each write; 0: off. */
  historyRetentionMs: number;
  /** --history-retention-max-revisions: the size bound, at most this many revisions kept. */
  historyRetentionMaxRevisions: number;
  /** --history-retention-max-bytes: the size bound in bytes of history kept (0: none). */
  historyRetentionMaxBytes: number;
  /** --storage-backend; etcd3 when --etcd-servers is set, else sqlite. */
  storageBackend: 'etcd3' | 'sqlite';
  /** --encryption-provider-config: the EncryptionConfiguration file; empty: values are stored as they are. */
  encryptionProviderConfig: string;
  /** --data-dir: the embedded store lives in <dataDir>/state.db. */
  dataDir: string;
  /** --secure-port; 0 picks a free port. */
  securePort: number;
  /** --bind-address. */
  bindAddress: string;
  /** --tls-cert-file (given together with tlsPrivateKeyFile or not at all). */
  tlsCertFile?: string;
  /** --tls-private-key-file. */
  tlsPrivateKeyFile?: string;
  /** --cert-dir: where the self-signed serving cert goes when no TLS files are given. */
  certDir: string;
  /** --authorization-mode. */
  authorizationModes: AuthorizationMode[];
  /** --authorization-policy-file (ABAC). */
  authorizationPolicyFile?: string;
  /** --authorization-webhook-config-file (Webhook). */
  authorizationWebhookConfigFile?: string;
  /** --authorization-webhook-version: v1beta1 or v1. */
  authorizationWebhookVersion: 'v1' | 'v1beta1';
  /** --authorization-webhook-cache-authorized-ttl. */
  authorizationWebhookCacheAuthorizedTtlMs: number;
  /** --authorization-webhook-cache-unauthorized-ttl. */
  authorizationWebhookCacheUnauthorizedTtlMs: number;
  /** --api-domain: API groups are named <group>.<apiDomain>. */
  apiDomain: string;
  /** --shutdown-delay-duration. */
  shutdownDelayMs: number;
  /** --livez-grace-period. */
  livezGracePeriodMs: number;
  /** --max-request-bytes. */
  maxRequestBytes: number;
  /** --max-requests-inflight: read-only requests served at once (0 = no limit). */
  maxRequestsInflight: number;
  /** --max-mutating-requests-inflight: mutating requests served at once (0 = no limit). */
  maxMutatingRequestsInflight: number;
  /** --enable-priority-and-fairness: API Priority and Fairness shares those seats; false keeps the in-flight limits. */
  enablePriorityAndFairness: boolean;
  /** --min-request-timeout in seconds (bounds watch timeouts). */
  minRequestTimeoutSeconds: number;
  /** --max-watches-per-user: watches one user may hold open on one worker (0 = no limit). */
  maxWatchesPerUser: number;
  /** --request-timeout. */
  requestTimeoutMs: number;
  /** --event-ttl: Events are deleted this long after their last write. */
  eventTtlMs: number;
  /** The winston level that -v/--v maps to. */
  logLevel: string;
  /** --service-cluster-ip-range: one CIDR, or two of different IP families (the first is the default family). */
  serviceClusterIPRanges: string[];
  /** --service-node-port-range. */
  serviceNodePortRange: PortRange;
  /** --watch-cache: lists, gets and watches are served from memory. */
  watchCache: boolean;
  /** --console (orch's own): the web console's static files at /console/. */
  console: boolean;
  /** --workers: worker processes serving the port, each a replica (server/workers.ts). */
  workers: number;
  /** --default-watch-cache-size: the most changes a resource's watch cache keeps; 0 disables the cache. */
  defaultWatchCacheSize: number;
  /** --kubelet-port: the node agent port when a Node does not publish one. */
  kubeletPort: number;
  /**
   * --controller-manager-port (orch's own): where ComponentStatus probes the local controller
   * manager, https://127.0.0.1:<port>/healthz; kube-apiserver always probes 10257.
   */
  controllerManagerPort: number;
  /** --kubelet-preferred-address-types: the Node address types to reach node agents by, in order. */
  kubeletPreferredAddressTypes: string[];
  /** --kubelet-client-certificate / --kubelet-client-key: the client certificate shown to node agents. */
  kubeletClientCertificate?: string;
  kubeletClientKey?: string;
  /** --kubelet-certificate-authority: verifies node agents' serving certificates (none: not verified). */
  kubeletCertificateAuthority?: string;
  /** --kubelet-timeout: how long a node agent or proxied backend may take to accept a connection. */
  kubeletTimeoutMs: number;
  /** --enable-admission-plugins, --disable-admission-plugins, --admission-control-config-file. */
  admission: AdmissionOptions;
  /** --default-not-ready-toleration-seconds, --default-unreachable-toleration-seconds. */
  admissionFlags: AdmissionFlags;
  /** --audit-*. */
  audit: AuditSettings;
  /** --proxy-client-*, --enable-aggregator-routing. */
  aggregator: AggregatorSettings;
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

/** Where the state lives (kube-apiserver's etcd flags, and orch's embedded store). */
export const STORAGE_FLAGS = {
  etcdServers: flag({
    name: 'etcd-servers',
    type: stringsValue,
    default: [],
    usage: 'List of etcd servers to connect with (scheme://ip:port), comma separated. Empty runs on the embedded store.',
    doc: 'Comma-separated etcd URLs; none runs on the embedded store',
    check: etcdServerURLs,
  }),
  etcdPrefix: flag({
    name: 'etcd-prefix',
    type: stringValue,
    default: '/registry',
    usage: 'The prefix to prepend to all resource paths in etcd.',
    doc: 'Key prefix of all resources in etcd',
  }),
  etcdCompactionIntervalMs: flag({
    name: 'etcd-compaction-interval',
    type: durationValue,
    default: 5 * 60_000,
    usage: 'The interval of compaction requests. If 0, the compaction request from apiserver is disabled.',
    doc: 'Interval of storage compaction; `0` disables it',
    check: nonNegative,
  }),
  historyRetentionMs: flag({
    name: 'history-retention',
    type: durationValue,
    default: 24 * 60 * 60_000,
    usage:
      'How long history is kept: compaction keeps younger revisions and every write records who made it (the history subresource). 0 disables.',
    doc: 'How long history is kept: compaction keeps every younger revision and the revision ledger records every write (the `history` subresource). `0` turns both off (compaction one interval behind, no ledger)',
    check: nonNegative,
  }),
  historyRetentionMaxRevisions: flag({
    name: 'history-retention-max-revisions',
    type: intValue,
    default: 1_000_000,
    usage: 'The most revisions compaction keeps, however young (the size bound of --history-retention).',
    doc: 'At most this many revisions kept, however young',
    check: nonNegative,
  }),
  historyRetentionMaxBytes: flag({
    name: 'history-retention-max-bytes',
    type: intValue,
    default: 0,
    usage:
      'The most bytes of history compaction keeps, however young: past it the oldest revisions go first, never the current one of a key (the size bound of --history-retention). 0 means no bound.',
    doc: "At most this many bytes of history kept (the revisions later writes superseded, of objects and of their ledger records), however young: past it the oldest revisions are compacted first, never an object's current one; reads of them then answer `410`; `0` = no bound",
    check: nonNegative,
  }),
  encryptionProviderConfig: flag({
    name: 'encryption-provider-config',
    type: stringValue,
    default: '',
    usage: 'The file containing configuration for encryption providers to be used for storing secrets in etcd',
    doc: "An `EncryptionConfiguration` (`apiserver.config.k8s.io/v1`): per resource (`secrets`, `deployments.apps`, `*.apps`, `*.`, `*.*`), the providers its stored values pass through, the first writing: `aesgcm` or `aescbc` keys (16, 24 or 32 bytes, base64), `identity`. On both backends; the ledger's history reads decrypt as every read does",
  }),
  storageBackend: flag({
    name: 'storage-backend',
    type: stringValue,
    default: '',
    usage:
      "The storage backend for persistence. Options: 'etcd3', 'sqlite'. Defaults to 'etcd3' when --etcd-servers is set, else 'sqlite'.",
    doc: '`etcd3` or `sqlite`',
    defaultDoc: '`etcd3` with `--etcd-servers`, else `sqlite`',
  }),
  dataDir: flag({
    name: 'data-dir',
    type: stringValue,
    default: './data',
    usage: 'The directory of the embedded store (state.db) and, by default, of generated certificates.',
    doc: 'Embedded store (`state.db`) and default `--cert-dir` parent',
    check: notEmpty,
  }),
};

/** The API server's own flags: authorization, limits, the node agents, services, admission. */
export const SERVER_FLAGS = {
  authorizationModes: flag({
    name: 'authorization-mode',
    type: stringsValue,
    default: ['AlwaysAllow'],
    usage: `Ordered list of plug-ins to do authorization on secure port. Comma-delimited list of: ${AUTHORIZATION_MODES.join(',')}.`,
    doc: 'Comma-separated, in order: `AlwaysAllow`, `AlwaysDeny`, `ABAC`, `Webhook`, `RBAC`, `Node`; `system:masters` is always allowed',
    check: validateAuthorizationModes,
  }),
  authorizationPolicyFile: flag({
    name: 'authorization-policy-file',
    type: stringValue,
    default: '',
    usage: 'File with authorization policy in json line by line format, used with --authorization-mode=ABAC, on the secure port.',
    doc: "`ABAC` policies, one JSON object per line (`abac.authorization.kubernetes.io/v1beta1` or `v0` `Policy`, the domain's `abac.authorization.orch.io` too, or an unversioned v0 line)",
  }),
  authorizationWebhookConfigFile: flag({
    name: 'authorization-webhook-config-file',
    type: stringValue,
    default: '',
    usage:
      "File with webhook configuration in kubeconfig format, used with --authorization-mode=Webhook. The API server will query the remote service to determine access on the API server's secure port.",
    doc: '`Webhook`: a kubeconfig naming the SubjectAccessReview service',
  }),
  authorizationWebhookVersion: flag({
    name: 'authorization-webhook-version',
    type: stringValue,
    default: 'v1beta1',
    usage: 'The API version of the authorization.k8s.io SubjectAccessReview to send to and expect from the webhook.',
    doc: '`authorization.k8s.io` version of the SubjectAccessReview sent: `v1beta1` or `v1`',
    check: webhookVersion,
  }),
  authorizationWebhookCacheAuthorizedTtlMs: flag({
    name: 'authorization-webhook-cache-authorized-ttl',
    type: durationValue,
    default: 5 * 60_000,
    usage: "The duration to cache 'authorized' responses from the webhook authorizer.",
    doc: 'How long an allowed webhook answer is cached',
    check: nonNegative,
  }),
  authorizationWebhookCacheUnauthorizedTtlMs: flag({
    name: 'authorization-webhook-cache-unauthorized-ttl',
    type: durationValue,
    default: 30_000,
    usage: "The duration to cache 'unauthorized' responses from the webhook authorizer.",
    doc: 'How long a refused webhook answer is cached',
    check: nonNegative,
  }),
  apiDomain: flag({
    name: 'api-domain',
    type: stringValue,
    default: 'orch.io',
    usage: 'The DNS suffix of built-in API group names (e.g. apps.<api-domain>).',
    doc: 'DNS suffix of the API group names',
    check: dnsSubdomain,
  }),
  shutdownDelayMs: flag({
    name: 'shutdown-delay-duration',
    type: durationValue,
    default: 0,
    usage:
      'Time to delay the termination. During that time the server keeps serving requests normally. The endpoints /healthz and /livez will return success, but /readyz immediately returns failure.',
    doc: 'On SIGTERM, keep serving this long while `/readyz` fails',
    check: nonNegative,
  }),
  livezGracePeriodMs: flag({
    name: 'livez-grace-period',
    type: durationValue,
    default: 0,
    usage:
      "This option represents the maximum amount of time it should take for apiserver to complete its startup sequence and become live. From apiserver's start time to when this amount of time has elapsed, /livez will assume that unfinished post-start hooks will complete successfully and therefore return true.",
    doc: '`/livez` reports failing checks as passing this long after start',
    check: nonNegative,
  }),
  maxRequestBytes: flag({
    name: 'max-request-bytes',
    type: intValue,
    default: 3145728,
    usage: 'The limit on the request body size that will be accepted by the API server.',
    doc: 'Largest request body accepted',
    check: nonNegative,
  }),
  maxRequestsInflight: flag({
    name: 'max-requests-inflight',
    type: intValue,
    default: 400,
    usage:
      'The maximum number of non-mutating requests in flight (watches and other long-running requests apart), or a zero value disables the limit completely. Requests beyond it are answered 429 with Retry-After.',
    doc: "With API Priority and Fairness (the default): together with the next flag, the seats the priority levels share by their nominal shares (each of `--workers` processes holds its share, seats / workers); FlowSchemas classify each request, queues are shuffle-sharded and fair, a LIST takes up to 10 seats by the objects it reads, a watch holds one seat only while it starts; beyond a level's queues or wait (a quarter of the request's timeout) the answer is `429` with `Retry-After` (a flow that comes back sooner than that gets its next `429`s after that long); answers carry `X-Kubernetes-PF-FlowSchema-UID` / `-PriorityLevel-UID`; `/debug/api_priority_and_fairness/dump_{priority_levels,queues,requests}`. Without it: read-only requests served at once (watches, proxies, exec/attach/port-forward and logs apart); more are answered `429` with `Retry-After: 1` at once; `0` = no limit; `system:masters` is always served",
    check: nonNegative,
  }),
  maxMutatingRequestsInflight: flag({
    name: 'max-mutating-requests-inflight',
    type: intValue,
    default: 200,
    usage:
      'The maximum number of mutating requests in flight, or a zero value disables the limit completely. Requests beyond it are answered 429 with Retry-After.',
    doc: 'The same for mutating requests',
    check: nonNegative,
  }),
  enablePriorityAndFairness: flag({
    name: 'enable-priority-and-fairness',
    type: boolValue,
    default: true,
    usage: 'If true, replace the max-in-flight handler with an enhanced one that queues and dispatches with priority and fairness',
    doc: '`false`: the two limits above as plain in-flight limits',
  }),
  maxWatchesPerUser: flag({
    name: 'max-watches-per-user',
    type: intValue,
    default: 1000,
    usage:
      'The maximum number of watches one user may hold open on one worker process (system:masters apart), or a zero value disables the limit. Watches beyond it are answered 429 with Retry-After.',
    doc: "Watches one user may hold open at once, per worker process (so up to `--workers` times this on a server); more are answered `429` with `Retry-After: 1`; `0` = no limit; `system:masters` is always served (orch's own: Kubernetes leaves it to API Priority and Fairness)",
    check: nonNegative,
  }),
  minRequestTimeoutSeconds: flag({
    name: 'min-request-timeout',
    type: intValue,
    default: 1800,
    usage:
      'An optional field indicating the minimum number of seconds a handler must keep a request open before timing it out. Currently only honored by the watch request handler, which picks a randomized value above this number as the connection timeout, to spread out load.',
    doc: 'Seconds; watches time out at a random point between this and twice this',
    check: nonNegative,
  }),
  requestTimeoutMs: flag({
    name: 'request-timeout',
    type: durationValue,
    default: 60_000,
    usage:
      'An optional field indicating the duration a handler must keep a request open before timing it out. This is the default request timeout for requests but may be overridden by flags such as --min-request-timeout for specific types of requests.',
    doc: 'Default timeout of non-watch requests',
    check: nonNegative,
  }),
  eventTtlMs: flag({
    name: 'event-ttl',
    type: durationValue,
    default: 60 * 60_000,
    usage: 'Amount of time to retain events.',
    doc: "Events (core and `events`) are deleted this long after their last write: an etcd lease, or the embedded store's own expiry; `0` keeps them",
    check: nonNegative,
  }),
  console: flag({
    name: 'console',
    type: boolValue,
    default: true,
    usage: "Serve the web console at /console/ (static files; every read it makes goes through the API with the user's credentials).",
    doc: "Serve the web console's static files at `/console/`; its reads go through the API as the signed-in user (orch's own flag)",
  }),
  watchCache: flag({
    name: 'watch-cache',
    type: boolValue,
    default: true,
    usage: 'Enable watch caching in the apiserver',
    doc: 'Serve lists, gets and watches from the watch cache',
  }),
  workers: flag({
    name: 'workers',
    type: intValue,
    // One core is left to what every server also runs (etcd or the embedded store's owner, the GC,
    // the controller manager): on 2 cores a second worker bought no write speed and cost 1.7x
    // kube-apiserver's memory and CPU under a real Pod workload, against 0.77x and 1.18x with one.
    default: defaultWorkers(availableParallelism()),
    usage:
      'The number of worker processes serving the secure port, each a replica of the API server with its own watch cache; 1 serves from this process alone. On the embedded store the first process owns the file and the others reach it through it.',
    doc: 'Worker processes serving the secure port, each a replica with its own watch cache (`server/workers.ts`); `1` serves from this process alone',
    check: atLeastOneWorker,
    defaultDoc: 'the number of CPUs − 1 (at least 1)',
  }),
  kubeletPort: flag({
    name: 'kubelet-port',
    type: intValue,
    default: 10250,
    usage: 'DEPRECATED: kubelet port.',
    doc: "Node agent port when a Node's status publishes none",
    check: port,
  }),
  controllerManagerPort: flag({
    name: 'controller-manager-port',
    type: intValue,
    default: 10257,
    usage:
      "The secure port of the local controller manager, whose https://127.0.0.1:<port>/healthz the controller-manager ComponentStatus reports (the controller manager's --secure-port).",
    doc: "Where the `controller-manager` ComponentStatus probes, `https://127.0.0.1:PORT/healthz` (the controller manager's `--secure-port`; kube-apiserver always probes 10257, and 10259 for the scheduler, which orch has not); `npm start` gives its controller manager a free port and passes it here (orch's own flag)",
    check: nonZeroPort,
  }),
  kubeletPreferredAddressTypes: flag({
    name: 'kubelet-preferred-address-types',
    type: stringsValue,
    default: [...DEFAULT_PREFERRED_ADDRESS_TYPES],
    usage: 'List of the preferred NodeAddressTypes to use for kubelet connections.',
    doc: 'Node address types CONNECT requests reach node agents by, in order',
    check: addressTypes,
  }),
  kubeletClientCertificate: flag({
    name: 'kubelet-client-certificate',
    type: stringValue,
    default: '',
    usage: 'Path to a client cert file for TLS.',
    doc: 'Client certificate shown to node agents, given with `--kubelet-client-key`',
  }),
  kubeletClientKey: flag({
    name: 'kubelet-client-key',
    type: stringValue,
    default: '',
    usage: 'Path to a client key file for TLS.',
    doc: 'Its private key, given with `--kubelet-client-certificate`',
  }),
  kubeletCertificateAuthority: flag({
    name: 'kubelet-certificate-authority',
    type: stringValue,
    default: '',
    usage: 'Path to a cert file for the certificate authority.',
    doc: "Verifies node agents' serving certificates; none: not verified",
  }),
  kubeletTimeoutMs: flag({
    name: 'kubelet-timeout',
    type: durationValue,
    default: 5000,
    usage: 'Timeout for kubelet operations.',
    doc: 'How long a node agent or proxied backend may take to accept a connection',
    check: nonNegative,
  }),
  defaultWatchCacheSize: flag({
    name: 'default-watch-cache-size',
    type: intValue,
    default: 10_000,
    usage:
      "The most changes a resource's watch cache keeps (it keeps those of the last 5 minutes, up to this many). If zero, the watch cache is disabled.",
    doc: 'Events kept per resource (besides the 5-minute window); `0` disables the cache',
    check: nonNegative,
  }),
  serviceClusterIPRange: flag({
    name: 'service-cluster-ip-range',
    type: stringValue,
    default: DEFAULT_SERVICE_CLUSTER_IP_RANGE,
    usage:
      'A CIDR notation IP range from which to assign service cluster IPs. This must not overlap with any IP ranges assigned to nodes or pods. Max of two dual-stack CIDRs is allowed.',
    doc: "One or two CIDRs (IPv4 and/or IPv6) Service cluster IPs come from; the first address is the `orch` Service's",
    check: (value) => void serviceClusterIPRanges(value),
  }),
  serviceNodePortRange: flag({
    name: 'service-node-port-range',
    type: portRangeValue,
    default: parsePortRange(DEFAULT_NODE_PORT_RANGE),
    usage:
      "A port range to reserve for services with NodePort visibility.  This must not overlap with the ephemeral port range on nodes.  Example: '30000-32767'. Inclusive at both ends of the range.",
    doc: 'Ports NodePort Services get',
  }),
  enableAdmissionPlugins: flag({
    name: 'enable-admission-plugins',
    type: stringsValue,
    default: [],
    usage: `admission plugins that should be enabled in addition to default enabled ones (${defaultOnPlugins().join(', ')}). Comma-delimited list of admission plugins: ${registeredPlugins().join(', ')}. The order of plugins in this flag does not matter.`,
    doc: "Admission plugins to run besides the default ones; the order they run in is fixed (Kubernetes')",
  }),
  disableAdmissionPlugins: flag({
    name: 'disable-admission-plugins',
    type: stringsValue,
    default: [],
    usage: `admission plugins that should be disabled although they are in the default enabled plugins list (${defaultOnPlugins().join(', ')}). Comma-delimited list of admission plugins: ${registeredPlugins().join(', ')}. The order of plugins in this flag does not matter.`,
    doc: 'Admission plugins not to run, default ones included',
  }),
  admissionControlConfigFile: flag({
    name: 'admission-control-config-file',
    type: stringValue,
    default: '',
    usage: 'File with admission control configuration.',
    doc: 'An `AdmissionConfiguration` (`apiserver.config.k8s.io/v1` or `apiserver.k8s.io/v1alpha1`) giving plugins their configuration by `path` (relative to the file) or embedded `configuration`',
  }),
  defaultNotReadyTolerationSeconds: flag({
    name: 'default-not-ready-toleration-seconds',
    type: intValue,
    default: 300,
    usage:
      'Indicates the tolerationSeconds of the toleration for notReady:NoExecute that is added by default to every pod that does not already have such a toleration.',
    doc: '`tolerationSeconds` of the not-ready:NoExecute toleration DefaultTolerationSeconds adds',
  }),
  defaultUnreachableTolerationSeconds: flag({
    name: 'default-unreachable-toleration-seconds',
    type: intValue,
    default: 300,
    usage:
      'Indicates the tolerationSeconds of the toleration for unreachable:NoExecute that is added by default to every pod that does not already have such a toleration.',
    doc: '`tolerationSeconds` of the unreachable:NoExecute toleration DefaultTolerationSeconds adds',
  }),
};

/** Which built-in APIs are served. */
export const API_FLAGS = {
  runtimeConfig: flag({
    name: 'runtime-config',
    type: configurationMapValue,
    default: new Map<string, string>(),
    usage:
      'A set of key=value pairs that enable or disable built-in APIs. Supported options are:\nv1=true|false for the core API group\n<group>/<version>=true|false for a specific API group and version (e.g. apps/v1=true)\n<group>/<version>/<resource>=true|false for one resource of a group version\napi/all=true|false controls all API versions\napi/ga=true|false controls all API versions of the form v[0-9]+\napi/beta=true|false controls all API versions of the form v[0-9]+beta[0-9]+\napi/alpha=true|false controls all API versions of the form v[0-9]+alpha[0-9]+',
    doc: '`key=value` list of served APIs: `api/all`, `api/ga`, `api/beta`, `api/alpha`, `<group>/<version>`, `<group>/<version>/<resource>` (`v1` or `api/v1` for the core group, which stays on); resource entries win over version entries, which win over `api/*`',
    defaultDoc: '(all but alpha)',
  }),
};

/** HTTPS: the port, the address, the serving certificate. */
export const SERVING_FLAGS = {
  ...securePortFlags(6443, 'with authentication and authorization', {
    securePort: 'HTTPS port; `0` picks a free one',
    bindAddress: 'IP address to listen on',
  }),
  ...tlsFileFlags(
    {
      usage:
        'File containing the default x509 certificate for HTTPS (CA cert, if any, concatenated after server cert). If neither this nor --tls-private-key-file is given, a self-signed certificate and key are generated in --cert-dir.',
      doc: 'Serving certificate, given with `--tls-private-key-file`',
    },
    {
      usage: 'File containing the default x509 private key matching --tls-cert-file.',
      doc: 'Its private key, given with `--tls-cert-file`',
    },
  ),
  ...certDirFlag({
    usage:
      'The directory where the TLS certs are located. If --tls-cert-file and --tls-private-key-file are provided, this flag will be ignored. Defaults to <data-dir>/certs.',
    doc: 'Where a self-signed serving certificate is generated when no TLS files are given',
    defaultDoc: '`<data-dir>/certs`',
  }),
};

/** orch-apiserver's flags: the section tables' values, and the option groups of component-base and the server. */
export class ServerRunOptions implements ComponentOptions<ServerOptions> {
  readonly values = flagValues({ ...STORAGE_FLAGS, ...SERVING_FLAGS, ...SERVER_FLAGS, ...API_FLAGS });
  readonly logs = new LogOptions();
  readonly metrics = new MetricsOptions();
  readonly features = new FeatureGateOptions();
  readonly authentication = new AuthenticationOptions();
  readonly audit = new AuditOptions();
  readonly aggregator = new AggregatorOptions();

  /** In kube-apiserver's order of --help. */
  addFlags(fs: FlagSet): void {
    fs.table(STORAGE_FLAGS, this.values);
    fs.table(SERVING_FLAGS, this.values);
    this.authentication.addFlags(fs);
    fs.table(SERVER_FLAGS, this.values);
    this.logs.addFlags(fs);
    fs.table(API_FLAGS, this.values);
    this.audit.addFlags(fs);
    this.aggregator.addFlags(fs);
    this.metrics.addFlags(fs);
    this.features.addFlags(fs);
  }

  private admissionOptions(): AdmissionOptions {
    return {
      enablePlugins: this.values.enableAdmissionPlugins,
      disablePlugins: this.values.disableAdmissionPlugins,
      configFile: this.values.admissionControlConfigFile,
    };
  }

  validate(): void {
    const v = this.values;
    checkFlags(STORAGE_FLAGS, v);
    checkFlags(SERVING_FLAGS, v);
    checkFlags(SERVER_FLAGS, v);
    // What joins several flags, and the groups' own checks.
    resolveStorageBackend(v.storageBackend, v.etcdServers.length > 0);
    if ((v.tlsCertFile === '') !== (v.tlsPrivateKeyFile === '')) {
      throw new OptionsError('--tls-cert-file and --tls-private-key-file must be specified together');
    }
    this.logs.validate();
    this.metrics.validate();
    this.audit.validate();
    this.aggregator.validate();
    try {
      servedResources(newResourceTable(newApiDomain(v.apiDomain), allResources).all(), v.runtimeConfig);
    } catch (err) {
      throw new OptionsError(`--runtime-config: ${(err as Error).message}`);
    }
    this.authentication.validate();
    const has = (mode: string) => v.authorizationModes.includes(mode);
    if (has('ABAC') && !v.authorizationPolicyFile) throw new OptionsError("authorization-mode ABAC's authorization policy file not passed");
    if (!has('ABAC') && v.authorizationPolicyFile) throw new OptionsError('cannot specify --authorization-policy-file without mode ABAC');
    if (has('Webhook') && !v.authorizationWebhookConfigFile)
      throw new OptionsError("authorization-mode Webhook's authorization config file not passed");
    if (!has('Webhook') && v.authorizationWebhookConfigFile) {
      throw new OptionsError('cannot specify --authorization-webhook-config-file without mode Webhook');
    }
    if ((v.kubeletClientCertificate === '') !== (v.kubeletClientKey === '')) {
      throw new OptionsError('--kubelet-client-certificate and --kubelet-client-key must be specified together');
    }
    const admissionErrors = validateAdmissionOptions(this.admissionOptions());
    if (admissionErrors.length) throw new OptionsError(admissionErrors.join(', '));
  }

  complete(): ServerOptions {
    const v = this.values;
    return {
      etcdServers: v.etcdServers,
      etcdPrefix: v.etcdPrefix,
      etcdCompactionIntervalMs: v.etcdCompactionIntervalMs,
      historyRetentionMs: v.historyRetentionMs,
      historyRetentionMaxRevisions: v.historyRetentionMaxRevisions,
      historyRetentionMaxBytes: v.historyRetentionMaxBytes,
      storageBackend: resolveStorageBackend(v.storageBackend, v.etcdServers.length > 0),
      encryptionProviderConfig: v.encryptionProviderConfig,
      dataDir: v.dataDir,
      securePort: v.securePort,
      bindAddress: v.bindAddress,
      tlsCertFile: v.tlsCertFile || undefined,
      tlsPrivateKeyFile: v.tlsPrivateKeyFile || undefined,
      certDir: v.certDir || join(v.dataDir, 'certs'),
      ...this.authentication.complete(),
      authorizationModes: v.authorizationModes as AuthorizationMode[],
      authorizationPolicyFile: v.authorizationPolicyFile || undefined,
      authorizationWebhookConfigFile: v.authorizationWebhookConfigFile || undefined,
      authorizationWebhookVersion: v.authorizationWebhookVersion as 'v1' | 'v1beta1',
      authorizationWebhookCacheAuthorizedTtlMs: v.authorizationWebhookCacheAuthorizedTtlMs,
      authorizationWebhookCacheUnauthorizedTtlMs: v.authorizationWebhookCacheUnauthorizedTtlMs,
      apiDomain: v.apiDomain,
      shutdownDelayMs: v.shutdownDelayMs,
      livezGracePeriodMs: v.livezGracePeriodMs,
      maxRequestBytes: v.maxRequestBytes,
      maxRequestsInflight: v.maxRequestsInflight,
      maxMutatingRequestsInflight: v.maxMutatingRequestsInflight,
      enablePriorityAndFairness: v.enablePriorityAndFairness,
      minRequestTimeoutSeconds: v.minRequestTimeoutSeconds,
      maxWatchesPerUser: v.maxWatchesPerUser,
      requestTimeoutMs: v.requestTimeoutMs,
      eventTtlMs: v.eventTtlMs,
      logLevel: this.logs.level(),
      serviceClusterIPRanges: serviceClusterIPRanges(v.serviceClusterIPRange),
      serviceNodePortRange: v.serviceNodePortRange,
      watchCache: v.watchCache,
      console: v.console,
      workers: v.workers,
      defaultWatchCacheSize: v.defaultWatchCacheSize,
      kubeletPort: v.kubeletPort,
      controllerManagerPort: v.controllerManagerPort,
      kubeletPreferredAddressTypes: v.kubeletPreferredAddressTypes,
      kubeletClientCertificate: v.kubeletClientCertificate || undefined,
      kubeletClientKey: v.kubeletClientKey || undefined,
      kubeletCertificateAuthority: v.kubeletCertificateAuthority || undefined,
      kubeletTimeoutMs: v.kubeletTimeoutMs,
      admission: this.admissionOptions(),
      admissionFlags: {
        defaultNotReadyTolerationSeconds: v.defaultNotReadyTolerationSeconds,
        defaultUnreachableTolerationSeconds: v.defaultUnreachableTolerationSeconds,
      },
      audit: this.audit.complete(),
      aggregator: this.aggregator.complete(),
      runtimeConfig: v.runtimeConfig,
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

// The checks of one flag's value, in kube-apiserver's wording; `name` is the flag's.

function nonNegative(n: number, name: string): void {
  if (n < 0) throw new OptionsError(`--${name} can not be negative value`);
}

function notEmpty(value: string, name: string): void {
  if (value === '') throw new OptionsError(`--${name} must not be empty`);
}

function port(value: number, name: string): void {
  checkPort(name, value);
}

function nonZeroPort(value: number, name: string): void {
  if (value < 1 || value > 65535) throw new OptionsError(`--${name} ${value} must be between 1 and 65535, inclusive`);
}

function atLeastOneWorker(n: number, name: string): void {
  if (!Number.isInteger(n) || n < 1) throw new OptionsError(`--${name} must be at least 1`);
}

function etcdServerURLs(servers: string[], name: string): void {
  for (const s of servers) {
    if (!/^https?:\/\/[^/]+/.test(s)) throw new OptionsError(`--${name}: ${JSON.stringify(s)} is not an http:// or https:// URL`);
  }
}

function webhookVersion(version: string, name: string): void {
  if (version !== 'v1' && version !== 'v1beta1') throw new OptionsError(`--${name} must be v1 or v1beta1, got ${JSON.stringify(version)}`);
}

function dnsSubdomain(domain: string, name: string): void {
  if (!isDnsSubdomain(domain)) {
    throw new OptionsError(
      `--${name} ${JSON.stringify(domain)}: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com')`,
    );
  }
}

function addressTypes(types: string[], name: string): void {
  for (const t of types) {
    if (!DEFAULT_PREFERRED_ADDRESS_TYPES.includes(t)) {
      throw new OptionsError(`--${name}: ${JSON.stringify(t)} is not one of ${DEFAULT_PREFERRED_ADDRESS_TYPES.join(', ')}`);
    }
  }
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
    if (!isOneOf(AUTHORIZATION_MODES, mode)) throw new OptionsError(`authorization-mode ${JSON.stringify(mode)} is not a valid mode`);
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

/** --workers' default: one worker per CPU but one, at least one. */
export function defaultWorkers(cpus: number): number {
  return Math.max(1, cpus - 1);
}
