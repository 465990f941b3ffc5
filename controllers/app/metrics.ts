/**
 * The controller manager's Prometheus metrics: the component-base registry (process defaults), the work queues'
 * depth/adds/retries (client-go's workqueue_* names, labelled by queue) and whether this process leads.
 */
import client from 'prom-client';
import { newRegistry, type Registry } from '../../apiserver/component-base/metrics/registry.js';
import type { QueueMetrics } from '../workqueue/work-queue.js';

export interface ControllerManagerMetrics {
  registry: Registry;
  queue(name: string): QueueMetrics;
  /** leader_election_master_status{name}: 1 while leading. */
  setLeading(leaseName: string, leading: boolean): void;
}

export function newControllerManagerMetrics(): ControllerManagerMetrics {
  const registry = newRegistry();
  // Every metric here is labelled by the queue's or the lease's name.
  const byName = { labelNames: ['name'] as const, registers: [registry] };
  const depth = new client.Gauge({ name: 'workqueue_depth', help: 'Current depth of workqueue', ...byName });
  const adds = new client.Counter({ name: 'workqueue_adds_total', help: 'Total number of adds handled by workqueue', ...byName });
  const retries = new client.Counter({ name: 'workqueue_retries_total', help: 'Total number of retries handled by workqueue', ...byName });
  const leading = new client.Gauge({
    name: 'leader_election_master_status',
    help: 'Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master.',
    ...byName,
  });
  return {
    registry,
    queue: (name) => ({
      added: () => adds.inc({ name }),
      depth: (n) => depth.set({ name }, n),
      retried: () => retries.inc({ name }),
    }),
    setLeading: (name, on) => leading.set({ name }, on ? 1 : 0),
  };
}
