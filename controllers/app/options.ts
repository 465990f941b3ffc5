/**
 * orch-controller-manager's flag table (kube-controller-manager's options): each flag declared once,
 * added to a component-base flag set, validated and completed into ControllerManagerOptions.
 */
import { Command, type ComponentOptions } from '../../apiserver/component-base/cli/command.js';
import type { FlagSet } from '../../apiserver/component-base/flag/flag-set.js';
import { checkFlags, flag, flagValues } from '../../apiserver/component-base/flag/flag-table.js';
import { boolValue, durationValue, float32Value, intValue, stringsValue, stringValue } from '../../apiserver/component-base/flag/values.js';
import { certDirFlag, securePortFlags } from '../../apiserver/component-base/serving/serving-flags.js';
import { OptionsError } from '../../apiserver/component-base/flag/options-error.js';
import { LogOptions } from '../../apiserver/component-base/logs/log-options.js';
import { MetricsOptions } from '../../apiserver/component-base/metrics/metrics-options.js';
import { FeatureGateOptions, type FeatureGates } from '../../apiserver/component-base/featuregate/orch-features.js';
import { enabledControllers } from './controller-names.js';
import { type CsrSigningConfig, CsrSigningFlags } from './csr-signing-flags.js';
import { DEFAULT_EVICTION_RATES, type EvictionRates } from '../nodelifecycle/zone-eviction.js';
import { messageOf } from '../../apiserver/api/thrown.js';

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

/** orch-controller-manager's flags, each declared once (the serving ones with every binary's). */
export const CONTROLLER_MANAGER_FLAGS = {
  kubeconfig: flag({
    name: 'kubeconfig',
    type: stringValue,
    default: '',
    usage: 'Path to kubeconfig file with authorization and master location information (required).',
    check: required,
  }),
  controllers: flag({
    name: 'controllers',
    type: stringsValue,
    default: ['*'],
    usage:
      "A list of controllers to enable. '*' enables all on-by-default controllers, 'foo' enables the controller named 'foo', '-foo' disables the controller named 'foo'.",
    check: knownControllers,
  }),
  leaderElect: flag({
    name: 'leader-elect',
    type: boolValue,
    default: true,
    usage:
      'Start a leader election client and gain leadership before executing the main loop. Enable this when running replicated components for high availability.',
  }),
  leaseDurationMs: flag({
    name: 'leader-elect-lease-duration',
    type: durationValue,
    default: 15_000,
    usage:
      'The duration that non-leader candidates will wait after observing a leadership renewal until attempting to acquire leadership of a led but unrenewed leader slot.',
    check: positive,
  }),
  renewDeadlineMs: flag({
    name: 'leader-elect-renew-deadline',
    type: durationValue,
    default: 10_000,
    usage:
      'The interval between attempts by the acting master to renew a leadership slot before it stops leading. This must be less than the lease duration.',
    check: positive,
  }),
  retryPeriodMs: flag({
    name: 'leader-elect-retry-period',
    type: durationValue,
    default: 2_000,
    usage: 'The duration the clients should wait between attempting acquisition and renewal of a leadership.',
    check: positive,
  }),
  leaseName: flag({
    name: 'leader-elect-resource-name',
    type: stringValue,
    default: '',
    usage: 'The name of the Lease used for locking during leader election (default "<prefix>-controller-manager").',
  }),
  leaseNamespace: flag({
    name: 'leader-elect-resource-namespace',
    type: stringValue,
    default: '',
    usage: 'The namespace of the Lease used for locking during leader election (default the system namespace).',
  }),
  ...securePortFlags(10257, '/healthz and /metrics'),
  ...certDirFlag({ usage: 'The directory of the self-signed serving certificate. Empty uses a temporary directory.' }),
  apiDomain: flag({
    name: 'api-domain',
    type: stringValue,
    default: 'orch.io',
    usage: "The API server's --api-domain: the DNS suffix of built-in API group names.",
  }),
  rootCaFile: flag({
    name: 'root-ca-file',
    type: stringValue,
    default: '',
    usage: "If set, this root certificate authority will be published to every namespace; else the kubeconfig's certificate authority is.",
  }),
  controllerKubeconfigDir: flag({
    name: 'controller-kubeconfig-dir',
    type: stringValue,
    default: '',
    usage:
      'A directory of kubeconfigs named <controller>.kubeconfig (e.g. namespace-controller.kubeconfig); a controller with one calls the API with that identity, the shared informers keep using --kubeconfig.',
  }),
  concurrentNamespaceSyncs: flag({
    name: 'concurrent-namespace-syncs',
    type: intValue,
    default: 10,
    usage: 'The number of namespace objects that are allowed to sync concurrently.',
    check: atLeastOne,
  }),
  concurrentGcSyncs: flag({
    name: 'concurrent-gc-syncs',
    type: intValue,
    default: 20,
    usage: 'The number of garbage collector workers that are allowed to sync concurrently.',
    check: atLeastOne,
  }),
  namespaceSyncPeriodMs: flag({
    name: 'namespace-sync-period',
    type: durationValue,
    default: 5 * 60_000,
    usage: 'The period for syncing namespace life-cycle updates.',
    check: positive,
  }),
  minResyncPeriodMs: flag({
    name: 'min-resync-period',
    type: durationValue,
    default: 12 * 3_600_000,
    usage: 'The resync period in reflectors will be random between MinResyncPeriod and 2*MinResyncPeriod.',
    check: positive,
  }),
  serviceAccountKeyFile: flag({
    name: 'service-account-private-key-file',
    type: stringValue,
    default: '',
    usage: 'Filename containing a PEM-encoded private RSA or ECDSA key used to sign service account tokens.',
  }),
  legacyTokenCleanUpPeriodMs: flag({
    name: 'legacy-service-account-token-clean-up-period',
    type: durationValue,
    default: 365 * 24 * 3_600_000,
    usage: 'The period of time since the last usage of an legacy service account token before it can be deleted.',
    check: positive,
  }),
  nodeEvictionRate: flag({
    name: 'node-eviction-rate',
    type: float32Value,
    default: DEFAULT_EVICTION_RATES.evictionRate,
    usage:
      'Number of nodes per second on which pods are deleted in case of node failure when a zone is healthy (see --unhealthy-zone-threshold for definition of healthy/unhealthy). Zone refers to entire cluster in non-multizone clusters.',
    check: notNegative,
  }),
  secondaryNodeEvictionRate: flag({
    name: 'secondary-node-eviction-rate',
    type: float32Value,
    default: DEFAULT_EVICTION_RATES.secondaryEvictionRate,
    usage:
      'Number of nodes per second on which pods are deleted in case of node failure when a zone is unhealthy (see --unhealthy-zone-threshold for definition of healthy/unhealthy). Zone refers to entire cluster in non-multizone clusters. This value is implicitly overridden to 0 if the cluster size is smaller than --large-cluster-size-threshold.',
    check: notNegative,
  }),
  unhealthyZoneThreshold: flag({
    name: 'unhealthy-zone-threshold',
    type: float32Value,
    default: DEFAULT_EVICTION_RATES.unhealthyZoneThreshold,
    usage: 'Fraction of Nodes in a zone which needs to be not Ready (minimum 3) for zone to be treated as unhealthy.',
    check: zoneFraction,
  }),
  largeClusterSizeThreshold: flag({
    name: 'large-cluster-size-threshold',
    type: intValue,
    default: DEFAULT_EVICTION_RATES.largeClusterSizeThreshold,
    usage:
      'Number of nodes from which node-lifecycle-controller treats the cluster as large for the eviction logic purposes. --secondary-node-eviction-rate is implicitly overridden to 0 for clusters this size or smaller.',
    check: notNegative,
  }),
};

/** orch-controller-manager's options: the table's values and the option groups. */
export class ControllerManagerFlags implements ComponentOptions<ControllerManagerOptions> {
  readonly values = flagValues(CONTROLLER_MANAGER_FLAGS);
  readonly csrSigning = new CsrSigningFlags();
  readonly logs = new LogOptions();
  readonly metrics = new MetricsOptions();
  readonly features = new FeatureGateOptions();

  addFlags(fs: FlagSet): void {
    fs.table(CONTROLLER_MANAGER_FLAGS, this.values);
    this.csrSigning.addFlags(fs);
    this.logs.addFlags(fs);
    this.metrics.addFlags(fs);
    this.features.addFlags(fs);
  }

  validate(): void {
    checkFlags(CONTROLLER_MANAGER_FLAGS, this.values);
    this.logs.validate();
    this.metrics.validate();
    this.csrSigning.validate();
  }

  /** The table's values are the options of the same names, but the eviction flags, which make one group. */
  complete(): ControllerManagerOptions {
    const { nodeEvictionRate, secondaryNodeEvictionRate, unhealthyZoneThreshold, largeClusterSizeThreshold, ...v } = this.values;
    return {
      ...v,
      logLevel: this.logs.level(),
      csrSigning: this.csrSigning.complete(),
      nodeEviction: {
        evictionRate: nodeEvictionRate,
        secondaryEvictionRate: secondaryNodeEvictionRate,
        unhealthyZoneThreshold,
        largeClusterSizeThreshold,
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

// The checks of one flag's value; `name` is the flag's.

function required(value: string, name: string): void {
  if (!value) throw new OptionsError(`--${name} is required`);
}

function knownControllers(controllers: string[], name: string): void {
  try {
    enabledControllers(controllers);
  } catch (err) {
    throw new OptionsError(`--${name}: ${messageOf(err)}`);
  }
}

function atLeastOne(n: number, name: string): void {
  if (n < 1) throw new OptionsError(`--${name} must be at least 1`);
}

function notNegative(n: number, name: string): void {
  if (n < 0) throw new OptionsError(`--${name} must not be negative`);
}

function positive(ms: number, name: string): void {
  if (ms <= 0) throw new OptionsError(`--${name} must be greater than zero`);
}

function zoneFraction(f: number, name: string): void {
  if (!(f > 0 && f <= 1)) throw new OptionsError(`--${name} must be greater than 0 and at most 1`);
}
