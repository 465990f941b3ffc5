/**
 * What the server keeps in memory from its own stores, each a post-start hook that passes once
 * listed: the RBAC policy cache (RBAC mode), the Node authorizer's graph (Node mode), and the
 * established CustomResourceDefinitions, served as they are stored.
 */
import type { ApiDomain } from '../api/domain.js';
import type { ResourceDef } from '../api/resource.js';
import type { ResourceTable } from '../api/resource-table.js';
import type { Schema } from '../api/schema.js';
import type { HealthChecks } from '../component-base/health/health-checks.js';
import type { Logger } from '../component-base/logs/logger.js';
import type { OpenApiSpecs } from '../endpoints/openapi-specs.js';
import { GenericStore } from '../registry/generic/store.js';
import type { Cacher } from '../storage/cacher/cacher.js';
import type { AdmissionAccess } from './admission-access.js';
import { newConversionWebhook } from './conversion-webhook.js';
import { type CustomResources, startCustomResources } from './custom-resources.js';
import { startNodeGraphInformers } from './node-graph-informers.js';
import type { ServerOptions } from './options.js';
import { startRbacInformers } from './rbac-informers.js';
import type { ServerAuthorization } from './server-authorization.js';
import type { ServerStoreConfig } from './server-stores.js';
import { storeLookup } from './store-lookup.js';

export interface ServerInformerDeps {
  options: ServerOptions;
  domain: ApiDomain;
  table: ResourceTable;
  stores: Map<ResourceDef, GenericStore>;
  storeConfig: ServerStoreConfig;
  authz: ServerAuthorization;
  definitions: Record<string, Schema>;
  openapi: OpenApiSpecs;
  cacher?: Cacher;
  access: AdmissionAccess;
  health: HealthChecks;
  logger: Logger;
}

export interface ServerInformers {
  customResources: CustomResources;
  /** Resolves once every informer has listed. */
  synced(): Promise<unknown>;
  stop(): void;
}

export function startServerInformers(deps: ServerInformerDeps): ServerInformers {
  const { options, domain, table, stores, health, logger } = deps;
  const rbacInformers = options.authorizationModes.includes('RBAC')
    ? startRbacInformers(deps.authz.policy, table, stores, { logger })
    : undefined;
  if (rbacInformers) {
    const rbacSynced = health.addPostStartHook('rbac/informers-synced');
    void rbacInformers.synced.then(rbacSynced);
  }
  const nodeInformers = options.authorizationModes.includes('Node')
    ? startNodeGraphInformers(deps.authz.graph, table, stores, { logger })
    : undefined;
  if (nodeInformers) {
    const nodeSynced = health.addPostStartHook('node-authorizer/graph-synced');
    void nodeInformers.synced.then(nodeSynced);
  }
  const customResources = startCustomResources({
    table,
    definitions: deps.definitions,
    stores,
    newStore: (def) => new GenericStore({ ...deps.storeConfig, def }),
    crdStore: storeLookup(table, () => stores).store('apiextensions.k8s.io', 'v1', 'customresourcedefinitions'),
    openapi: deps.openapi,
    cacher: deps.cacher,
    logger,
    converter: newConversionWebhook({ domain, reader: deps.access.reader }),
  });
  const crdSynced = health.addPostStartHook('apiextensions/crd-informer-synced');
  void customResources.synced.then(crdSynced);
  return {
    customResources,
    synced: () => Promise.all([rbacInformers?.synced, nodeInformers?.synced, customResources.synced]),
    stop() {
      customResources.stop();
      rbacInformers?.stop();
      nodeInformers?.stop();
    },
  };
}
