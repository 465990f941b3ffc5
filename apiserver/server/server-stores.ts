/**
 * The generic stores of every declared resource (the server's own bootstrap and admission use them
 * all; only the --runtime-config ones are served), with what their hooks need: the Service IP and
 * node port allocators, the component probes, the Endpoints cleanup; and what the never-stored kinds
 * answer (reviews, TokenRequest).
 */
import type { ApiDomain } from '../api/domain.js';
import type { ResourceDef } from '../api/resource.js';
import type { ResourceTable } from '../api/resource-table.js';
import type { Logger } from '../component-base/logs/logger.js';
import type { Answer } from '../registry/generic/actions.js';
import { COMPONENT_PROBES } from '../registry/core/componentstatus/components.js';
import { newServiceAllocators, SERVICE_ALLOCATORS, type ServiceAllocators } from '../registry/core/service/allocator/service-allocators.js';
import { SERVICE_ENDPOINTS_CLEANUP } from '../registry/core/service/endpoints-cleanup.js';
import { newStores } from '../registry/generic/new-stores.js';
import type { KindDeclaration } from '../registry/generic/kind-declaration.js';
import type { GenericStore, StoreConfig } from '../registry/generic/store.js';
import { newStoreHookEnv } from '../registry/generic/store-hooks.js';
import type { Cacher } from '../storage/cacher/cacher.js';
import type { Storage } from '../storage/interfaces.js';
import type { AdmissionChain } from '../admission/chain.js';
import { localComponents, newComponentProbes } from './component-probes.js';
import { newEndpointsCleanup } from './endpoints-cleanup.js';
import type { LateStores } from './late-stores.js';
import type { ServerOptions } from './options.js';
import { storeLookup } from './store-lookup.js';
import { HISTORY_ENV } from '../registry/history/history-env.js';
import type { Authorizer } from '../authorization/interfaces.js';
import { newHistoryEnv } from './history-env.js';

/** What every generic store of the server shares, custom resources' too. */
export type ServerStoreConfig = Omit<StoreConfig, 'def' | 'hooks' | 'actions' | 'createAction' | 'computed' | 'lookup'>;

export interface ServerStoreDeps {
  options: ServerOptions;
  domain: ApiDomain;
  table: ResourceTable;
  resources: readonly KindDeclaration[];
  storage: Storage;
  cacher?: Cacher;
  admission: AdmissionChain;
  answers: ReadonlyMap<string, Answer>;
  logger: Logger;
  /** The server's authorizer, which the history group asks per resource (HISTORY_ENV). */
  authorizer: Authorizer;
}

export interface ServerStores {
  stores: Map<ResourceDef, GenericStore>;
  storeConfig: ServerStoreConfig;
  serviceAllocators: ServiceAllocators;
}

/** Builds the stores and binds them to `late`, which their readers were given. */
export function newServerStores(deps: ServerStoreDeps, late: LateStores): ServerStores {
  const { options, table, storage, logger } = deps;
  const lookup = storeLookup(table, () => late.built);
  const serviceNetwork = { clusterIPRanges: options.serviceClusterIPRanges, nodePortRange: options.serviceNodePortRange };
  const serviceAllocators = newServiceAllocators(storage, options.etcdPrefix, serviceNetwork, logger);
  const hookEnv = newStoreHookEnv([
    { dependency: SERVICE_ALLOCATORS, value: serviceAllocators },
    { dependency: COMPONENT_PROBES, value: newComponentProbes(storage, localComponents(options.controllerManagerPort)) },
    { dependency: SERVICE_ENDPOINTS_CLEANUP, value: newEndpointsCleanup(() => late.built && lookup.store('', 'v1', 'endpoints')) },
    { dependency: HISTORY_ENV, value: newHistoryEnv(storage, deps.authorizer, () => late.get().values()) },
  ]);
  const storeConfig: ServerStoreConfig = {
    storage,
    storagePrefix: options.etcdPrefix,
    domain: deps.domain,
    admission: deps.admission,
    cacher: deps.cacher,
    eventTtlSeconds: Math.ceil(options.eventTtlMs / 1000),
    ledgerRetentionSeconds: Math.ceil(options.historyRetentionMs / 1000),
  };
  const stores = newStores(table, deps.resources, { ...storeConfig, hookEnv, answers: deps.answers });
  late.set(stores);
  return { stores, storeConfig, serviceAllocators };
}
