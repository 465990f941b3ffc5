/**
 * The server's own objects, made once it serves and retried (backing off to 5 s) until they are:
 * the system namespaces, priority classes and flow-control objects, the service ranges and the
 * default Service, then the default RBAC policy; each half a post-start hook.
 */
import type { ApiDomain } from '../api/domain.js';
import type { ResourceDef } from '../api/resource.js';
import type { ResourceTable } from '../api/resource-table.js';
import type { HealthChecks } from '../component-base/health/health-checks.js';
import type { Logger } from '../component-base/logs/logger.js';
import { adoptServiceRanges } from '../registry/core/service/adopt-ranges.js';
import type { ServiceAllocators } from '../registry/core/service/allocator/service-allocators.js';
import { ensureDefaultService } from '../registry/core/service/default-service.js';
import type { GenericStore } from '../registry/generic/store.js';
import { ensureFlowControlBootstrap } from './bootstrap-flowcontrol.js';
import { ensureSystemNamespaces, SYSTEM_USER } from './bootstrap-namespaces.js';
import { ensureSystemPriorityClasses } from './bootstrap-priority-classes.js';
import { reconcileDefaultPolicy } from './bootstrap-rbac.js';
import { storeLookup } from './store-lookup.js';

export interface BootstrapDeps {
  domain: ApiDomain;
  table: ResourceTable;
  stores: Map<ResourceDef, GenericStore>;
  serviceAllocators: ServiceAllocators;
  logger: Logger;
}

export interface Bootstrap {
  /** Starts the loop once the server serves on `port` (the default Service's port). */
  start(deps: BootstrapDeps, port: number): void;
  /** Ends the loop after its current round. */
  stop(): Promise<void>;
}

/** Registers the two post-start hooks now (they precede the informers'); the loop starts with start(). */
export function newBootstrap(health: HealthChecks): Bootstrap {
  const bootstrapDone = health.addPostStartHook('bootstrap-controller');
  const rbacBootstrapped = health.addPostStartHook('rbac/bootstrap-roles');
  let bootstrapping = true;
  let loop: Promise<void> = Promise.resolve();
  return {
    start(deps, port) {
      const { domain, table, stores, serviceAllocators, logger } = deps;
      const lookup = storeLookup(table, () => stores);
      const namespaces = lookup.store('', 'v1', 'namespaces');
      const services = lookup.store('', 'v1', 'services');
      const defaultServiceIP = serviceAllocators.clusterIPs(serviceAllocators.families[0])!.firstAddress;
      loop = (async () => {
        for (let delay = 100; bootstrapping; delay = Math.min(delay * 2, 5000)) {
          try {
            await ensureSystemNamespaces(namespaces, domain);
            await ensureSystemPriorityClasses(lookup.store('scheduling.k8s.io', 'v1', 'priorityclasses'), domain);
            const flowcontrol = (plural: string) => lookup.store('flowcontrol.apiserver.k8s.io', 'v1beta3', plural);
            await ensureFlowControlBootstrap(flowcontrol('prioritylevelconfigurations'), flowcontrol('flowschemas'), domain);
            await adoptServiceRanges(serviceAllocators, services);
            await ensureDefaultService(services, domain, defaultServiceIP, port, SYSTEM_USER);
            bootstrapDone();
            await reconcileDefaultPolicy(domain, table, stores);
            rbacBootstrapped();
            return;
          } catch (err) {
            logger.warn('bootstrap of system namespaces, the default service or the RBAC policy failed, retrying', { err: String(err) });
            await new Promise((r) => setTimeout(r, delay));
          }
        }
      })();
    },
    stop() {
      bootstrapping = false;
      return loop;
    },
  };
}
