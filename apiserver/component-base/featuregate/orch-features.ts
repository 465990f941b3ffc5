/**
 * The feature gates orch has, one table for every binary (as Kubernetes has one default gate set).
 * Stages are Kubernetes 1.28's except where orch's implementation differs, which the entry says.
 */
import type { FlagSet } from '../flag/flag-set.js';
import { FeatureGate, featureGateValue, type FeatureSpec } from './feature-gate.js';

export const ORCH_FEATURES = {
  /** Consistent lists and gets served from the watch cache once it is proved fresh (orch: beta, on since the cache proves freshness; Kubernetes 1.28: alpha). */
  ConsistentListFromCache: { default: true, preRelease: 'BETA' },
  /** `limit`/`continue` paging of lists; off, lists answer everything at once. */
  APIListChunking: { default: true, preRelease: 'BETA' },
  /** Each API server replica keeps an identity Lease in the system namespace, renewed every 10 s (server/identity-lease.ts). */
  APIServerIdentity: { default: true, preRelease: 'BETA' },
  /** CEL matchConditions of admission webhooks. */
  AdmissionWebhookMatchConditions: { default: true, preRelease: 'BETA' },
  /** Server-side apply (PATCH application/apply-patch+yaml). */
  ServerSideApply: { default: true, preRelease: 'GA', lockToDefault: true },
  /**
   * Watches with `sendInitialEvents=true` (an informer's streaming initial list): the current state as
   * ADDED events, written out as the client reads, then a BOOKMARK marking their end, then changes;
   * a watch from "" or "0" is one that sends them. (orch: beta, on, since both the watch cache and
   * the store serve it with bounded memory; Kubernetes 1.28: alpha, off, and refused without the cache.)
   */
  WatchList: { default: true, preRelease: 'BETA' },
  /** BOOKMARK events of watches asked for with allowWatchBookmarks. */
  WatchBookmark: { default: true, preRelease: 'GA', lockToDefault: true },
  /** Watches resumed from the watch cache's window instead of the store. */
  EfficientWatchResumption: { default: true, preRelease: 'GA', lockToDefault: true },
} as const satisfies Record<string, FeatureSpec>;

export type OrchFeature = keyof typeof ORCH_FEATURES;

/** The read side binaries pass on: whether a gate is on. */
export type FeatureGates = Pick<FeatureGate, 'enabled'>;

/** The --feature-gates flag of a binary. */
export class FeatureGateOptions {
  readonly gates = new FeatureGate(ORCH_FEATURES);

  addFlags(fs: FlagSet): void {
    fs.var(
      featureGateValue,
      this,
      'gates',
      'feature-gates',
      `A set of key=value pairs that describe feature gates for alpha/experimental features. Options are:\n${this.gates.knownFeatures().join('\n')}`,
      { doc: featureGatesDoc() },
    );
  }
}

/** The README's line for --feature-gates: every gate with its stage and default. */
function featureGatesDoc(): string {
  const gates = Object.entries(ORCH_FEATURES).map(([name, spec]: [string, FeatureSpec]) => {
    const stage = spec.preRelease === 'GA' ? 'GA' : spec.preRelease.toLowerCase();
    const state = spec.lockToDefault ? `locked ${spec.default ? 'on' : 'off'}` : spec.default ? 'on' : 'off';
    return `\`${name}\` (${stage}, ${state})`;
  });
  return `\`Name=bool,…\` (every binary): ${gates.join(', ')}, \`AllAlpha\`, \`AllBeta\`; unknown or locked gates refused`;
}
