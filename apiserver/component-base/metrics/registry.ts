/** The Prometheus registry of a binary (prom-client) and its /metrics answer. */
import type { ServerResponse } from 'node:http';
import client from 'prom-client';

export type Registry = client.Registry;

/** A registry with the process metrics every binary exports (CPU, memory, event loop, …). */
export function newRegistry(): Registry {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  return registry;
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
    res.end(`${(err as Error).message}\n`);
    return;
  }
  res.writeHead(200, { 'Content-Type': registry.contentType });
  res.end(text);
}
