/**
 * The Prometheus registry of a binary (prom-client) and its /metrics answer. Metrics are declared as
 * Kubernetes' component-base declares them: with a stability level shown in their help
 * ("[STABLE] …"), and optionally the release they were deprecated in. A deprecated metric's help says
 * so; one deprecated in an earlier release is hidden (declared but never exposed) unless
 * --show-hidden-metrics-for-version is given.
 */
import type { ServerResponse } from 'node:http';
import client from 'prom-client';
import { KUBERNETES_MAJOR, KUBERNETES_MINOR } from '../../api/kubernetes-version.js';
import { messageOf } from '../../api/thrown.js';
import { BoundCounter, BoundGauge, BoundHistogram } from './bound.js';

export type Registry = client.Registry;

export type StabilityLevel = 'ALPHA' | 'BETA' | 'STABLE';

/** What declares a metric besides its prom-client configuration. */
export interface Stability {
  /** ALPHA when absent. */
  stabilityLevel?: StabilityLevel;
  /** "1.27.0": the release that deprecated the metric. */
  deprecatedVersion?: string;
}

/** A registry with the process metrics every binary exports (CPU, memory, event loop, …). */
export function newRegistry(): Registry {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  return registry;
}

/** Declares metrics into one registry with Kubernetes' stability and deprecation rules. */
export class MetricsFactory {
  /**
   * @param showHiddenForVersion --show-hidden-metrics-for-version ('' = none): hidden metrics of
   * that release are exposed again.
   */
  constructor(
    readonly registry: Registry,
    private readonly showHiddenForVersion = '',
  ) {}

  counter<L extends string>(opts: client.CounterConfiguration<L> & Stability): client.Counter<L> {
    return new client.Counter({ ...opts, ...this.placement(opts) });
  }

  gauge<L extends string>(opts: client.GaugeConfiguration<L> & Stability): client.Gauge<L> {
    return new client.Gauge({ ...opts, ...this.placement(opts) });
  }

  histogram<L extends string>(opts: client.HistogramConfiguration<L> & Stability): client.Histogram<L> {
    return new client.Histogram({ ...opts, ...this.placement(opts) });
  }

  /** A counter for a hot path: children bound once count without validating or hashing labels (bound.ts). */
  boundCounter<L extends string>(opts: { name: string; help: string; labelNames: readonly L[] } & Stability): BoundCounter<L> {
    return new BoundCounter({ ...opts, ...this.placement(opts) });
  }

  boundGauge<L extends string>(opts: { name: string; help: string; labelNames: readonly L[] } & Stability): BoundGauge<L> {
    return new BoundGauge({ ...opts, ...this.placement(opts) });
  }

  boundHistogram<L extends string>(
    opts: { name: string; help: string; labelNames: readonly L[]; buckets: readonly number[] } & Stability,
  ): BoundHistogram<L> {
    return new BoundHistogram({ ...opts, ...this.placement(opts) });
  }

  /** The help text as exposed, and the registry it is exposed in (none when hidden). */
  private placement(opts: { help: string } & Stability): { help: string; registers: Registry[] } {
    let help = opts.help;
    if (opts.deprecatedVersion) help = `(Deprecated since ${opts.deprecatedVersion}) ${help}`;
    help = `[${opts.stabilityLevel ?? 'ALPHA'}] ${help}`;
    const hidden = opts.deprecatedVersion !== undefined && isHidden(opts.deprecatedVersion, this.showHiddenForVersion);
    return { help, registers: hidden ? [] : [this.registry] };
  }
}

/**
 * A metric deprecated in X.Y is hidden from release X.(Y+1) on; --show-hidden-metrics-for-version
 * (which may only name the previous release) shows every hidden metric again, as Kubernetes does.
 */
export function isHidden(deprecatedVersion: string, showHiddenForVersion: string): boolean {
  const [major, minor] = deprecatedVersion.split('.').map(Number);
  const hidden = major < KUBERNETES_MAJOR || (major === KUBERNETES_MAJOR && minor + 1 <= KUBERNETES_MINOR);
  return hidden && showHiddenForVersion === '';
}

/**
 * A binary running as worker processes (Node's cluster module): each worker's registry joins the
 * aggregation (`useInClusterAggregation`, in the workers) and the supervising process collects the
 * sum over all workers (`aggregatedClusterMetrics`), as prom-client's AggregatorRegistry does.
 */
export function useInClusterAggregation(registry: Registry): void {
  client.AggregatorRegistry.setRegistries([registry]);
  // Constructing one installs the worker's answer to the supervisor's collection requests.
  new client.AggregatorRegistry();
}

let aggregator: client.AggregatorRegistry<client.RegistryContentType> | undefined;

/** In the supervising process: every worker's metrics, counters and histograms summed, as exposition text. */
export async function aggregatedClusterMetrics(): Promise<string> {
  aggregator ??= new client.AggregatorRegistry();
  return (await aggregator.clusterMetrics()) as string;
}

/**
 * Answers GET /metrics with the registry's text exposition (or what `collect` gathers instead, e.g.
 * the aggregation of all workers); 500 with the reason when collecting fails.
 */
export async function serveMetrics(registry: Registry, res: ServerResponse, collect = () => registry.metrics()): Promise<void> {
  let text: string;
  try {
    text = await collect();
  } catch (err) {
    res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end(`${messageOf(err)}\n`);
    return;
  }
  res.writeHead(200, { 'Content-Type': registry.contentType });
  res.end(text);
}
