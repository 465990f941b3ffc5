/**
 * orch-controller-manager's flag table (kube-controller-manager's options): one field per flag, the
 * flags added to a component-base flag set, validated and completed into ControllerManagerOptions.
 */
import { Command, type ComponentOptions } from '../../apiserver/component-base/cli/command.js';
import { checkPort } from '../../apiserver/component-base/flag/checks.js';
import type { FlagSet } from '../../apiserver/component-base/flag/flag-set.js';
import { OptionsError } from '../../apiserver/component-base/flag/options-error.js';
import { LogOptions } from '../../apiserver/component-base/logs/log-options.js';
import { MetricsOptions } from '../../apiserver/component-base/metrics/metrics-options.js';
import { FeatureGateOptions, type FeatureGates } from '../../apiserver/component-base/featuregate/orch-features.js';
import { enabledControllers } from './controller-names.js';
import { type CsrSigningConfig, CsrSigningFlags } from './csr-signing-flags.js';
import { DEFAULT_EVICTION_RATES, type EvictionRates } from '../nodelifecycle/zone-eviction.js';

/** What orch-controller-manager runs with: its flags, validated and completed. */
export interface ControllerManagerOptions {
  /** --kubeconfig: the cluster to manage and the identity to use. */
  kubeconfig: string;
  /** --controllers: `*`, `name`, `-name` entries (see controller-names.ts). */
  controllers: string[];
  leaderElect: boolean;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  /** --leader-elect-resource-name; '' = "<prefix>-controller-manager". */
  leaseName: string;
  /** --leader-elect-resource-namespace; '' = the system namespace. */
  leaseNamespace: string;
  /** --secure-port for /healthz and /metrics; 0 picks a free port. */
  securePort: number;
  bindAddress: string;
  /** --cert-dir for the self-signed serving certificate; '' = a temporary folder. */
  certDir: string;
  apiDomain: string;
  /** --root-ca-file; '' = the kubeconfig's CA. */
  rootCaFile: string;
  /** --controller-kubeconfig-dir: `<controller>.kubeconfig` files giving controllers their own identity; '' = none. */
  controllerKubeconfigDir: string;
  concurrentNamespaceSyncs: number;
  concurrentGcSyncs: number;
  namespaceSyncPeriodMs: number;
  /** Informers resync at a random period between this and twice it. */
  minResyncPeriodMs: number;
  /** The winston level --v maps to. */
  logLevel: string;
  /** --legacy-service-account-token-clean-up-period. */
  legacyTokenCleanUpPeriodMs: number;
  /** --service-account-private-key-file; '' = the token controller does not run. */
  serviceAccountKeyFile: string;
  /** --cluster-signing-*: the CAs of the CSR signing controller. */
  csrSigning: CsrSigningConfig;
  /** --node-eviction-rate and friends: how fast the node lifecycle controller taints NoExecute. */
  nodeEviction: EvictionRates;
  /** --feature-gates. */
  featureGates: FeatureGates;
  /** What setting GA or deprecated gates warned. */
  featureGateWarnings: string[];
  /** --show-hidden-metrics-for-version ('' = none). */
  showHiddenMetricsForVersion: string;
}

/** orch-controller-manager's flags, each field holding its flag's value. */
export class ControllerManagerFlags implements ComponentOptions<ControllerManagerOptions> {
  kubeconfig = '';
  controllers = ['*'];
  leaderElect = true;
  leaseDurationMs = 15_000;
  renewDeadlineMs = 10_000;
  retryPeriodMs = 2_000;
  leaseName = '';
  leaseNamespace = '';
  securePort = 10257;
  bindAddress = '0.0.0.0';
  certDir = '';
  apiDomain = 'orch.io';
  rootCaFile = '';
  controllerKubeconfigDir = '';
  concurrentNamespaceSyncs = 10;
  concurrentGcSyncs = 20;
  namespaceSyncPeriodMs = 5 * 60_000;
  minResyncPeriodMs = 12 * 3_600_000;
  readonly logs = new LogOptions();
  readonly metrics = new MetricsOptions();
  readonly features = new FeatureGateOptions();
  serviceAccountKeyFile = '';
  legacyTokenCleanUpPeriodMs = 365 * 24 * 3_600_000;
  readonly csrSigning = new CsrSigningFlags();
  nodeEvictionRate = DEFAULT_EVICTION_RATES.evictionRate;
  secondaryNodeEvictionRate = DEFAULT_EVICTION_RATES.secondaryEvictionRate;
  unhealthyZoneThreshold = DEFAULT_EVICTION_RATES.unhealthyZoneThreshold;
  largeClusterSizeThreshold = DEFAULT_EVICTION_RATES.largeClusterSizeThreshold;

  addFlags(fs: FlagSet): void {
    fs.string(this, 'kubeconfig', 'kubeconfig', 'Path to kubeconfig file with authorization and master location information (required).');
    fs.strings(
      this,
      'controllers',
      'controllers',
      "A list of controllers to enable. '*' enables all on-by-default controllers, 'foo' enables the controller named 'foo', '-foo' disables the controller named 'foo'.",
    );
    fs.bool(
      this,
      'leaderElect',
      'leader-elect',
      'Start a leader election client and gain leadership before executing the main loop. Enable this when running replicated components for high availability.',
    );
    fs.duration(
      this,
      'leaseDurationMs',
      'leader-elect-lease-duration',
      'The duration that non-leader candidates will wait after observing a leadership renewal until attempting to acquire leadership of a led but unrenewed leader slot.',
    );
    fs.duration(
      this,
      'renewDeadlineMs',
      'leader-elect-renew-deadline',
      'The interval between attempts by the acting master to renew a leadership slot before it stops leading. This must be less than the lease duration.',
    );
    fs.duration(
      this,
      'retryPeriodMs',
      'leader-elect-retry-period',
      'The duration the clients should wait between attempting acquisition and renewal of a leadership.',
    );
    fs.string(
      this,
      'leaseName',
      'leader-elect-resource-name',
      'The name of the Lease used for locking during leader election (default "<prefix>-controller-manager").',
    );
    fs.string(
      this,
      'leaseNamespace',
      'leader-elect-resource-namespace',
      'The namespace of the Lease used for locking during leader election (default the system namespace).',
    );
    fs.int(this, 'securePort', 'secure-port', 'The port on which to serve HTTPS /healthz and /metrics. 0 picks a free port.');
    fs.ip(this, 'bindAddress', 'bind-address', 'The IP address on which to listen for the --secure-port port.');
    fs.string(this, 'certDir', 'cert-dir', 'The directory of the self-signed serving certificate. Empty uses a temporary directory.');
    fs.string(this, 'apiDomain', 'api-domain', "The API server's --api-domain: the DNS suffix of built-in API group names.");
    fs.string(
      this,
      'rootCaFile',
      'root-ca-file',
      "If set, this root certificate authority will be published to every namespace; else the kubeconfig's certificate authority is.",
    );
    fs.string(
      this,
      'controllerKubeconfigDir',
      'controller-kubeconfig-dir',
      'A directory of kubeconfigs named <controller>.kubeconfig (e.g. namespace-controller.kubeconfig); a controller with one calls the API with that identity, the shared informers keep using --kubeconfig.',
    );
    fs.int(
      this,
      'concurrentNamespaceSyncs',
      'concurrent-namespace-syncs',
      'The number of namespace objects that are allowed to sync concurrently.',
    );
    fs.int(
      this,
      'concurrentGcSyncs',
      'concurrent-gc-syncs',
      'The number of garbage collector workers that are allowed to sync concurrently.',
    );
    fs.duration(this, 'namespaceSyncPeriodMs', 'namespace-sync-period', 'The period for syncing namespace life-cycle updates.');
    fs.duration(
      this,
      'minResyncPeriodMs',
      'min-resync-period',
      'The resync period in reflectors will be random between MinResyncPeriod and 2*MinResyncPeriod.',
    );
    fs.string(
      this,
      'serviceAccountKeyFile',
      'service-account-private-key-file',
      'Filename containing a PEM-encoded private RSA or ECDSA key used to sign service account tokens.',
    );
    fs.duration(
      this,
      'legacyTokenCleanUpPeriodMs',
      'legacy-service-account-token-clean-up-period',
      'The period of time since the last usage of an legacy service account token before it can be deleted.',
    );
    fs.float32(
      this,
      'nodeEvictionRate',
      'node-eviction-rate',
      'Number of nodes per second on which pods are deleted in case of node failure when a zone is healthy (see --unhealthy-zone-threshold for definition of healthy/unhealthy). Zone refers to entire cluster in non-multizone clusters.',
    );
    fs.float32(
      this,
      'secondaryNodeEvictionRate',
      'secondary-node-eviction-rate',
      'Number of nodes per second on which pods are deleted in case of node failure when a zone is unhealthy (see --unhealthy-zone-threshold for definition of healthy/unhealthy). Zone refers to entire cluster in non-multizone clusters. This value is implicitly overridden to 0 if the cluster size is smaller than --large-cluster-size-threshold.',
    );
    fs.float32(
      this,
      'unhealthyZoneThreshold',
      'unhealthy-zone-threshold',
      'Fraction of Nodes in a zone which needs to be not Ready (minimum 3) for zone to be treated as unhealthy.',
    );
    fs.int(
      this,
      'largeClusterSizeThreshold',
      'large-cluster-size-threshold',
      'Number of nodes from which node-lifecycle-controller treats the cluster as large for the eviction logic purposes. --secondary-node-eviction-rate is implicitly overridden to 0 for clusters this size or smaller.',
    );
    this.csrSigning.addFlags(fs);
    this.logs.addFlags(fs);
    this.metrics.addFlags(fs);
    this.features.addFlags(fs);
  }

  validate(): void {
    if (!this.kubeconfig) throw new OptionsError('--kubeconfig is required');
    checkPort('secure-port', this.securePort);
    this.logs.validate();
    this.metrics.validate();
    this.csrSigning.validate();
    try {
      enabledControllers(this.controllers);
    } catch (err) {
      throw new OptionsError(`--controllers: ${(err as Error).message}`);
    }
    atLeastOne('concurrent-namespace-syncs', this.concurrentNamespaceSyncs);
    atLeastOne('concurrent-gc-syncs', this.concurrentGcSyncs);
    positive('leader-elect-lease-duration', this.leaseDurationMs);
    positive('leader-elect-renew-deadline', this.renewDeadlineMs);
    positive('leader-elect-retry-period', this.retryPeriodMs);
    positive('namespace-sync-period', this.namespaceSyncPeriodMs);
    positive('min-resync-period', this.minResyncPeriodMs);
    positive('legacy-service-account-token-clean-up-period', this.legacyTokenCleanUpPeriodMs);
    notNegative('node-eviction-rate', this.nodeEvictionRate);
    notNegative('secondary-node-eviction-rate', this.secondaryNodeEvictionRate);
    notNegative('large-cluster-size-threshold', this.largeClusterSizeThreshold);
    if (!(this.unhealthyZoneThreshold > 0 && this.unhealthyZoneThreshold <= 1))
      throw new OptionsError('--unhealthy-zone-threshold must be greater than 0 and at most 1');
  }

  complete(): ControllerManagerOptions {
    return {
      kubeconfig: this.kubeconfig,
      controllers: this.controllers,
      leaderElect: this.leaderElect,
      leaseDurationMs: this.leaseDurationMs,
      renewDeadlineMs: this.renewDeadlineMs,
      retryPeriodMs: this.retryPeriodMs,
      leaseName: this.leaseName,
      leaseNamespace: this.leaseNamespace,
      securePort: this.securePort,
      bindAddress: this.bindAddress,
      certDir: this.certDir,
      apiDomain: this.apiDomain,
      rootCaFile: this.rootCaFile,
      controllerKubeconfigDir: this.controllerKubeconfigDir,
      concurrentNamespaceSyncs: this.concurrentNamespaceSyncs,
      concurrentGcSyncs: this.concurrentGcSyncs,
      namespaceSyncPeriodMs: this.namespaceSyncPeriodMs,
      minResyncPeriodMs: this.minResyncPeriodMs,
      logLevel: this.logs.level(),
      serviceAccountKeyFile: this.serviceAccountKeyFile,
      legacyTokenCleanUpPeriodMs: this.legacyTokenCleanUpPeriodMs,
      csrSigning: this.csrSigning.complete(),
      nodeEviction: {
        evictionRate: this.nodeEvictionRate,
        secondaryEvictionRate: this.secondaryNodeEvictionRate,
        unhealthyZoneThreshold: this.unhealthyZoneThreshold,
        largeClusterSizeThreshold: this.largeClusterSizeThreshold,
      },
      featureGates: this.features.gates,
      featureGateWarnings: this.features.gates.warnings,
      showHiddenMetricsForVersion: this.metrics.showHiddenMetricsForVersion,
    };
  }
}

/** The orch-controller-manager command line. */
export const controllerManagerCommand = new Command<ControllerManagerOptions>({
  name: 'orch-controller-manager',
  about: [
    'The orch controller manager runs the control loops that keep the cluster in its desired state:',
    'namespace deletion, garbage collection, default service accounts and root CA publishing.',
  ].join('\n'),
  newOptions: () => new ControllerManagerFlags(),
});

/** The options of an orch-controller-manager command line; throws OptionsError. */
export function parseOptions(argv: string[]): ControllerManagerOptions {
  return controllerManagerCommand.options(argv);
}

function atLeastOne(name: string, n: number): void {
  if (n < 1) throw new OptionsError(`--${name} must be at least 1`);
}

function notNegative(name: string, n: number): void {
  if (n < 0) throw new OptionsError(`--${name} must not be negative`);
}

function positive(name: string, ms: number): void {
  if (ms <= 0) throw new OptionsError(`--${name} must be greater than zero`);
}
