/**
 * A ControllerContext over a kubeconfig, for running one controller in a test with options the
 * command line does not give (a clock, a short poll): a client, shared informers and plain queues.
 */
import { newApiDomain } from '../../apiserver/api/domain.js';
import { newLogger } from '../../apiserver/component-base/logs/logger.js';
import type { ControllerContext } from '../../controllers/controllerutil/controller-context.js';
import { ApiClient } from '../../controllers/client/api-client.js';
import { discoverResources } from '../../controllers/client/discovery.js';
import { ApiEventRecorder } from '../../controllers/events/event-recorder.js';
import { InformerFactory } from '../../controllers/informers/informer-factory.js';
import { WorkQueue } from '../../controllers/workqueue/work-queue.js';

export interface TestControllerContext extends ControllerContext {
  /** Starts the informers; returns a stop function that also closes the client. */
  start(): () => Promise<void>;
}

export function newTestControllerContext(kubeconfig: string, opts: { domain?: string; rootCaPem?: string } = {}): TestControllerContext {
  const domain = newApiDomain(opts.domain);
  const client = ApiClient.fromKubeconfig(kubeconfig, { domain, userAgent: 'orch-controller-test' });
  const logger = newLogger({ logLevel: 'error' });
  const informers = new InformerFactory(client, { logger });
  return {
    client,
    informers,
    domain,
    logger,
    rootCaPem: opts.rootCaPem ?? client.config.cluster.caPem,
    discover: () => discoverResources(client),
    newQueue: <T>() => new WorkQueue<T>(),
    recorder: (controller) => new ApiEventRecorder({ client, domain, controller, instance: 'test', logger }),
    start() {
      informers.start();
      return async () => {
        await informers.stop();
        client.close();
      };
    },
  };
}
