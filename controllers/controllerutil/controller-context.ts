/** What every controller gets from orch-controller-manager, and what it gives back. */
import type { ApiDomain } from '../../apiserver/api/domain.js';
import type { Logger } from '../../apiserver/component-base/logs/logger.js';
import type { ApiClient } from '../client/api-client.js';
import type { DiscoveryResult } from '../client/discovery.js';
import type { EventRecorder } from '../events/event-recorder.js';
import type { InformerFactory } from '../informers/informer-factory.js';
import type { WorkQueue, WorkQueueOptions } from '../workqueue/work-queue.js';

export interface ControllerContext {
  client: ApiClient;
  /** Shared informers (one list/watch per resource for the whole process). */
  informers: InformerFactory;
  domain: ApiDomain;
  logger: Logger;
  /** Discovery of every served resource (live). */
  discover(): Promise<DiscoveryResult>;
  /** A work queue whose depth, adds and retries are exported under `name`. */
  newQueue<T>(name: string, opts?: Omit<WorkQueueOptions<T>, 'metrics'>): WorkQueue<T>;
  /** The event recorder of a controller, reporting as `controller` (e.g. "deployment-controller"). */
  recorder(controller: string): EventRecorder;
  /** The CA bundle that verifies the API server, as published to every namespace. */
  rootCaPem?: string;
}

/** A running controller: works until the signal aborts, then resolves. */
export interface Controller {
  run(signal: AbortSignal): Promise<void>;
}
