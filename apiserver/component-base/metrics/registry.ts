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

/** Answers GET /metrics with the registry's text exposition; 500 with the reason when collecting fails. */
export async function serveMetrics(registry: Registry, res: ServerResponse): Promise<void> {
  let text: string;
  try {
    text = await registry.metrics();
  } catch (err) {
    res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end(`${(err as Error).message}\n`);
    return;
  }
  res.writeHead(200, { 'Content-Type': registry.contentType });
  res.end(text);
}
