/**
 * The local APIServices kube-apiserver registers itself (its autoregister and crdregistration
 * controllers): one per served group version, built-in ones labelled `automanaged: onstart` with
 * kube-apiserver's priorities, custom resource ones `automanaged: true` with a CRD's. A group version
 * no longer served loses its automanaged APIService; one a user registered (no label) is never
 * touched. The served table is compared every second, so a new CRD's group version is listed soon
 * after it is served.
 */
import type { APIService } from '../../api/generated/types.js';
import { type ApiObject, asApiObject } from '../../api/object.js';
import type { ResourceTable } from '../../api/resource-table.js';
import type { Logger } from '../../component-base/logs/logger.js';
import type { ApiServiceCache } from './api-services.js';
import { builtInPriority, CUSTOM_RESOURCE_PRIORITY } from './priorities.js';

export interface LocalApiServiceDeps {
  /** The served table (custom resources join it as they are served). */
  table: ResourceTable;
  /** The served groups that are built in (the rest come from CRDs). */
  builtInGroups: ReadonlySet<string>;
  cache: ApiServiceCache;
  create(obj: ApiObject): Promise<void>;
  delete(name: string): Promise<void>;
  /** Resolves once the CRDs stored at start are served: only then are stale ones removed. */
  synced: Promise<void>;
  logger: Logger;
  intervalMs?: number;
}

/** The desired local APIServices of the served table. */
export function localApiServices(table: ResourceTable, builtInGroups: ReadonlySet<string>): APIService[] {
  const label = `kube-aggregator.${table.domain.labelPrefix}/automanaged`;
  const out: APIService[] = [];
  for (const g of table.groups()) {
    const builtIn = builtInGroups.has(g.group);
    const kubernetesGroup = table.all().find((d) => d.group === g.group)?.kubernetesGroup ?? g.group;
    for (const version of g.versions) {
      const p = builtIn ? builtInPriority(kubernetesGroup, version) : CUSTOM_RESOURCE_PRIORITY;
      out.push({
        apiVersion: `${table.domain.group('apiregistration.k8s.io')}/v1`,
        kind: 'APIService',
        metadata: { name: `${version}.${g.group}`, labels: { [label]: builtIn ? 'onstart' : 'true' } },
        spec: { group: g.group, version, groupPriorityMinimum: p.group, versionPriority: p.version },
      });
    }
  }
  return out;
}

export function startLocalApiServices(d: LocalApiServiceDeps): { stop(): void } {
  const label = `kube-aggregator.${d.table.domain.labelPrefix}/automanaged`;
  let synced = false;
  let busy = false;
  let last = '';
  void d.synced.then(() => (synced = true));
  const round = async () => {
    if (busy) return;
    busy = true;
    try {
      const desired = localApiServices(d.table, d.builtInGroups);
      const key = `${synced}|${desired.map((s) => s.metadata.name).join(',')}|${d.cache.all().length}`;
      if (key === last) return;
      const names = new Set(desired.map((s) => s.metadata.name));
      for (const s of desired) if (!d.cache.get(s.metadata.name ?? '')) await d.create(asApiObject(s));
      if (synced) {
        for (const s of d.cache.all()) {
          if (s.metadata.labels?.[label] && !s.spec?.service && !names.has(s.metadata.name)) await d.delete(s.metadata.name ?? '');
        }
      }
      last = key;
    } catch (err) {
      d.logger.verbose('registering the local APIServices failed, retrying', { err: String(err) });
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void round(), d.intervalMs ?? 1000);
  timer.unref();
  void round();
  return { stop: () => clearInterval(timer) };
}
