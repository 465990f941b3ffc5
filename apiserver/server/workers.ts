/**
 * --workers N: N worker processes serve the secure port, each a full replica with its own watch
 * cache, as replicas behind a load balancer are. The first process only supervises: it starts them,
 * starts a new one when one dies, and on shutdown stops them all gracefully (SIGTERM, each drains as
 * one server does).
 *
 * The supervisor listens on the secure port and hands each connection to a worker over its IPC
 * channel (server/hand-over.ts): the next in turn that has nothing unacknowledged, else the one with
 * the fewest. It keeps its copy until the worker acknowledges; when a worker dies, a connection whose
 * hand-over message was never written goes to another worker, and one that was written is closed
 * (its client sees the connection end and retries). Node's cluster round-robin (SCHED_RR, the
 * default on Linux) balances the same way but never closes a connection handed to a worker that dies
 * before it acknowledges: the client waits forever. SCHED_NONE (the workers accept on the shared
 * socket) strands nothing, but the kernel wakes whichever worker it likes, and a burst of
 * connections goes mostly to one. Measured with two workers on two cores (busier worker's share;
 * held connections counted per process with ss, the harness's own among them, short connections
 * by the workers' CPU time; from scripts not kept, loads as described):
 *
 *                                               SCHED_RR        SCHED_NONE       hand-over
 *   32 connections opened 5 ms apart            52%             55%              52%
 *   32 opened at once, 10 rounds (mean, worst)  56%, 67%        69%, 97%         52%, 52%
 *   32 keep-alive clients, 3 rounds of 5 s      52%, 55%, 52%   55%, 100%, 97%   52%, 52%, 55%
 *   32 clients of short connections, 5 s        52% CPU         55% CPU          51% CPU
 *   supervisor CPU per connection               0.29 ms         0.10 ms          0.26 ms
 *
 * With 20 connections handed to two stopped workers and one of them SIGKILLed: SCHED_RR left one
 * open and unanswered, the hand-over closed one and the other worker answered 19. (Node 20 has no
 * `reusePort`; with it, from Node 22.12, each worker could bind its own socket and the kernel would
 * spread connections by hash, but a dead worker's queued connections would be reset, not taken over.)
 *
 * On etcd every worker is an ordinary replica. On the embedded store the first process owns the
 * SQLite file and its revision sequence and serves the store to the workers over their IPC channel
 * (storage/remote/): every call is forwarded, every watch event pushed, in order, as it happens.
 * /metrics on any worker answers the sum over all workers, collected by the supervisor (prom-client's
 * cluster aggregation); health checks are each worker's own, as each is a replica.
 *
 * A client moving between workers never sees time go backwards, as between replicas: a consistent
 * read proves each worker's cache fresh against the one revision sequence, and a read at a
 * resourceVersion newer than a worker's cache waits for it.
 */
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from '../component-base/logs/logger.js';
import { aggregatedClusterMetrics } from '../component-base/metrics/registry.js';
import type { Storage } from '../storage/interfaces.js';
import { newRemoteStorage, serveStorage, type MessagePortLike, type ServedPeer } from '../storage/remote/index.js';
import type { ServerOptions } from './options.js';
import { runServer, type RunningServer } from './run-server.js';
import { newStorage } from './metered-storage.js';
import { servingCert } from './https-server.js';
import { frontProxyClient } from './aggregator/new-aggregator.js';
import { withServerHeapArgs } from '../component-base/runtime/server-heap.js';
import { newDispatcher, serveHandedOver } from './hand-over.js';

/** How long after a worker died unexpectedly the next one starts. */
const RESTART_DELAY_MS = 1000;

/** The environment variable that tells a worker its slot (WorkerEnvironment.slot). */
const WORKER_SLOT_ENV = 'ORCH_WORKER_SLOT';

/** True in a worker process started by runWorkers. */
export const isWorkerProcess = cluster.isWorker;

/** Runs this worker process's server: on the embedded store, through the supervising process. */
export function runWorker(options: ServerOptions): Promise<RunningServer> {
  const parent: MessagePortLike = {
    send: (m) => process.send!(m),
    onMessage: (listener) => {
      process.on('message', listener);
      return () => process.off('message', listener);
    },
  };
  // Without its supervisor (it died) a worker stops at once; it would otherwise go on accepting on
  // the shared socket with nobody to restart or stop it.
  process.once('disconnect', () => process.exit(1));
  cluster.worker?.on('error', () => {});
  const slot = Number(process.env[WORKER_SLOT_ENV]);
  return runServer(options, undefined, {
    slot: Number.isInteger(slot) ? slot : undefined,
    storage: options.storageBackend === 'sqlite' ? newRemoteStorage(parent) : undefined,
    clusterMetrics: newMetricsRequester(parent),
    serveOnceSynced: true,
    serve: (server) => serveHandedOver(server, { send: (m) => process.send!(m), on: (event, l) => process.on(event, l) }),
  });
}

type MetricsMessage = { orchMetrics: 'collect'; id: number } | { orchMetrics: 'collected'; id: number; text?: string; error?: string };

function isMetricsMessage(m: unknown): m is MetricsMessage {
  return typeof m === 'object' && m !== null && typeof (m as { orchMetrics?: unknown }).orchMetrics === 'string';
}

/** A worker's /metrics: asks the supervisor for the aggregation of every worker's metrics. */
function newMetricsRequester(parent: MessagePortLike): () => Promise<string> {
  let nextId = 1;
  const waiting = new Map<number, { resolve(text: string): void; reject(err: Error): void }>();
  parent.onMessage((m) => {
    if (!isMetricsMessage(m) || m.orchMetrics !== 'collected') return;
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    if (m.text !== undefined) w?.resolve(m.text);
    else w?.reject(new Error(m.error ?? "collecting the workers' metrics failed"));
  });
  return () =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      parent.send({ orchMetrics: 'collect', id } satisfies MetricsMessage);
    });
}

/** The supervisor's side: answers a worker's request with the sum over all workers. */
function answerMetricsRequests(worker: Worker): void {
  worker.on('message', (m: unknown) => {
    if (!isMetricsMessage(m) || m.orchMetrics !== 'collect') return;
    const reply = (r: MetricsMessage) => {
      if (worker.isConnected()) worker.send(r);
    };
    aggregatedClusterMetrics().then(
      (text) => reply({ orchMetrics: 'collected', id: m.id, text }),
      (err: unknown) => reply({ orchMetrics: 'collected', id: m.id, error: String(err) }),
    );
  });
}

/** Starts the workers; resolves once every one serves. `close()` stops them and the owned store. */
export async function runWorkers(options: ServerOptions, logger: Logger): Promise<RunningServer> {
  // Generated once here, so the workers do not race to create different ones.
  servingCert(options);
  frontProxyClient(options);
  const owned: Storage | undefined = options.storageBackend === 'sqlite' ? newStorage(options, logger) : undefined;
  // The workers listen on nothing through the cluster module (the supervisor hands the secure
  // port's connections over itself, see the comment at the top); should one, on a socket of its own.
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  cluster.setupPrimary({ serialization: 'advanced', execArgv: withServerHeapArgs(process.execArgv) });
  const peers = new Map<Worker, ServedPeer>();
  let closing = false;
  const dispatcher = newDispatcher(options.securePort, options.bindAddress, (err) =>
    logger.error('accepting a connection failed', { err: String(err) }),
  );

  const start = (slot: number): Promise<number> => {
    const worker = cluster.fork({ [WORKER_SLOT_ENV]: String(slot) });
    answerMetricsRequests(worker);
    const serving = dispatcher.attach(worker);
    worker.once('disconnect', () => dispatcher.detach(worker));
    if (owned) {
      const port: MessagePortLike = {
        send: (m) => {
          if (worker.isConnected()) worker.send(m as object);
        },
        onMessage: (listener) => {
          worker.on('message', listener);
          return () => worker.off('message', listener);
        },
      };
      peers.set(worker, serveStorage(owned, port));
    }
    worker.once('exit', (code, signal) => {
      dispatcher.detach(worker);
      peers.get(worker)?.close();
      peers.delete(worker);
      if (closing) return;
      logger.error('API server worker died; starting another', { pid: worker.process.pid, code, signal });
      setTimeout(() => {
        // A worker stopped by shutdown before it listened did not fail to start.
        if (!closing)
          start(slot).catch((err: unknown) => {
            if (!closing) logger.error('API server worker failed to start', { err: String(err) });
          });
      }, RESTART_DELAY_MS).unref();
    });
    return new Promise((resolve, reject) => {
      serving.then(resolve, reject);
      worker.once('exit', (code) => reject(new Error(`API server worker exited with code ${code} before it served`)));
    });
  };

  let port: number;
  try {
    [port] = await Promise.all(Array.from({ length: options.workers }, (_, slot) => start(slot)));
  } catch (err) {
    closing = true;
    dispatcher.close();
    await stopWorkers();
    await owned?.close();
    throw err;
  }
  logger.info('workers serving', { workers: options.workers, port, storage: options.storageBackend });

  async function stopWorkers(): Promise<void> {
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w);
    await Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((resolve) => {
            if (w.isDead()) return resolve();
            w.once('exit', () => resolve());
            w.process.kill('SIGTERM');
          }),
      ),
    );
  }

  let closed: Promise<void> | undefined;
  return {
    port,
    close: () =>
      (closed ??= (async () => {
        closing = true;
        // No new connections first; then each worker drains what it has, as one server does.
        dispatcher.close();
        await stopWorkers();
        for (const peer of peers.values()) peer.close();
        await owned?.close();
      })()),
  };
}
