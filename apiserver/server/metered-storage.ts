/**
 * The metrics registry and the store that reports to it: the store (etcd or the embedded file, or a
 * worker's supervisor's), timed per request, its watch cache and its compactor.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiDomain } from '../api/domain.js';
import type { ResourceTable } from '../api/resource-table.js';
import type { Logger } from '../component-base/logs/logger.js';
import { Cacher } from '../storage/cacher/cacher.js';
import { type Compactor, startCompactor } from '../storage/compactor.js';
import { newEtcdStorage } from '../storage/etcd3/index.js';
import { encryptStorage } from '../storage/encrypted-storage.js';
import { instrumentStorage } from '../storage/instrumented-storage.js';
import type { Storage } from '../storage/interfaces.js';
import { newSqliteStorage } from '../storage/sqlite/index.js';
import { type MaxInFlightLimit, newMaxInFlightLimit } from './filters/with-max-in-flight-limit.js';
import { loadEncryptionConfig } from './encryption-config.js';
import type { LateStores } from './late-stores.js';
import { type Metrics, newMetrics } from './metrics.js';
import type { ServerOptions } from './options.js';
import { newStorageMetricSources } from './storage-metrics.js';
import type { WorkerEnvironment } from './worker-environment.js';

/** The store the options name: etcd, or the embedded SQLite file in the data dir. */
export function newStorage(options: ServerOptions, logger: Logger): Storage {
  if (options.storageBackend === 'etcd3') return newEtcdStorage({ endpoints: options.etcdServers, logger });
  mkdirSync(options.dataDir, { recursive: true });
  return newSqliteStorage({ path: sqlitePath(options) });
}

/** The embedded store's file. */
export const sqlitePath = (options: Pick<ServerOptions, 'dataDir'>) => join(options.dataDir, 'state.db');

export interface MeteredStorage {
  metrics: Metrics;
  /** The max-in-flight filter's limits (its watermark is a metric). */
  inFlightLimit: MaxInFlightLimit;
  storage: Storage;
  /** Absent with --watch-cache=false or a zero --default-watch-cache-size: every read goes to the store. */
  cacher?: Cacher;
  compactor: Compactor;
}

/** The metrics come first: storage reports to them; what they read of the server exists once it is wired. */
export function newMeteredStorage(
  options: ServerOptions,
  domain: ApiDomain,
  logger: Logger,
  worker: WorkerEnvironment,
  served: ResourceTable,
  stores: LateStores,
): MeteredStorage {
  const storageSources = newStorageMetricSources(options.etcdPrefix, stores.get);
  const inFlightLimit = newMaxInFlightLimit({ readOnly: options.maxRequestsInflight, mutating: options.maxMutatingRequestsInflight });
  const metrics = newMetrics({
    showHiddenForVersion: options.showHiddenMetricsForVersion,
    served: (info) => served.lookup(info.apiGroup, info.apiVersion, info.resource) !== undefined,
    inFlight: inFlightLimit.watermark,
    storedObjects: () => storageSources.count(storage),
    clusterMetrics: worker.clusterMetrics,
  });
  const stored = worker.storage ?? newStorage(options, logger);
  // Encryption at rest, below the timing and the watch cache: what the store holds is what it encrypts.
  const encryption = options.encryptionProviderConfig ? loadEncryptionConfig(options.encryptionProviderConfig, domain) : undefined;
  const plain = encryption ? encryptStorage(stored, (key) => encryption(storageSources.typeOf(key) || '\u0000')) : stored;
  const storage = instrumentStorage(plain, metrics.storage(storageSources.typeOf));
  const cacher =
    options.watchCache && options.defaultWatchCacheSize > 0
      ? new Cacher({
          storage,
          prefix: options.etcdPrefix,
          windowSize: options.defaultWatchCacheSize,
          consistentReads: options.featureGates.enabled('ConsistentListFromCache'),
          logger,
        })
      : undefined;
  // apiserver_storage_objects from the watch cache where it knows them (storage-metrics.ts).
  if (cacher) storageSources.follow(cacher);
  const compactor = startCompactor(storage, {
    intervalMs: options.etcdCompactionIntervalMs,
    retentionMs: options.historyRetentionMs,
    maxRevisions: options.historyRetentionMaxRevisions,
    maxBytes: options.historyRetentionMaxBytes,
    logger,
  });
  return { metrics, inFlightLimit, storage, cacher, compactor };
}
