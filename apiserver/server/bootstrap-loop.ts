/**
 * The server's own objects, made once it serves and retried (backing off to 5 s) until they are:
 * the system namespaces, priority classes and flow-control objects, the service ranges and the
 * default Service, then the default RBAC policy; each half a post-start hook. Then, as Kubernetes'
 * bootstrap and system-namespaces controllers do, the system namespaces and the default Service are
 * made again every RESYNC_MS when someone deleted them (Kubernetes: the Service every 10 s, the
 * namespaces every minute; here both at the Service's pace, a read each when nothing is missing).
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

/** How often the system namespaces and the default Service are checked once made. */
const RESYNC_MS = 10_000;

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
  let wake: () => void = () => undefined;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  return {
    start(deps, port) {
      const { domain, table, stores, serviceAllocators, logger } = deps;
      const lookup = storeLookup(table, () => stores);
      const namespaces = lookup.store('', 'v1', 'namespaces');
      const services = lookup.store('', 'v1', 'services');
      const defaultServiceIP = serviceAllocators.clusterIPs(serviceAllocators.families[0])!.firstAddress;
      const ensureKept = async () => {
        await ensureSystemNamespaces(namespaces, domain);
        await ensureDefaultService(services, domain, defaultServiceIP, port, SYSTEM_USER);
      };
      const keep = async () => {
        while (bootstrapping) {
          await pause(RESYNC_MS);
          if (!bootstrapping) return;
          await ensureKept().catch((err: unknown) =>
            logger.warn('re-making the system namespaces or the default service failed, retrying', { err: String(err) }),
          );
        }
      };
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
            break;
          } catch (err) {
            logger.warn('bootstrap of system namespaces, the default service or the RBAC policy failed, retrying', { err: String(err) });
            await pause(delay);
          }
        }
        await keep();
      })();
    },
    stop() {
      bootstrapping = false;
      wake();
      return loop;
    },
  };
}
