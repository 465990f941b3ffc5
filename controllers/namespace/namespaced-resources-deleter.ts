/**
 * Empties a Terminating namespace and then finalizes it (Kubernetes' namespacedResourcesDeleter):
 *
 * 1. the namespace's phase is made Terminating if it is not yet;
 * 2. for every namespaced resource in discovery that can be deleted, the whole collection is deleted
 *    with Background propagation (or, when deletecollection is not served, each listed object);
 * 3. what is left is listed again: objects waiting on finalizers make the pass report an estimate to
 *    wait before the next one, anything else is an error; the namespace's conditions say which;
 * 4. once nothing is left, the namespace finalizer is removed from spec.finalizers through /finalize,
 *    and the API server deletes the namespace when no finalizer remains.
 */
import type { Namespace } from '../../apiserver/api/generated/types.js';
import type { ApiObject } from '../../apiserver/api/object.js';
import { NAMESPACES } from '../controllerutil/resources.js';
import type { ApiDomain } from '../../apiserver/api/domain.js';
import { isApiError } from '../../apiserver/api/status.js';
import type { Logger } from '../../apiserver/component-base/logs/logger.js';
import type { ApiClient, ResourceClient } from '../client/api-client.js';
import {
  discoveryFailureMessage,
  gvrKey,
  preferredResourcesWith,
  type ApiResourceInfo,
  type DiscoveryResult,
} from '../client/discovery.js';
import { NamespaceConditionUpdater, type ContentTotals } from './namespace-conditions.js';
import { messageOf, toError } from '../../apiserver/api/thrown.js';

/** How long to wait for objects that are held by finalizers (Kubernetes' finalizerEstimateSeconds). */
export const FINALIZER_ESTIMATE_SECONDS = 15;

/** Not everything is gone yet: look again after about this long. */
export class ResourcesRemainingError extends Error {
  constructor(readonly estimateSeconds: number) {
    super(`some content remains in the namespace, estimate ${estimateSeconds} seconds before it is removed`);
  }
}

/** What deleting one resource's content left behind. */
interface ResourceOutcome {
  estimateSeconds: number;
  remaining: number;
  finalizers: Map<string, number>;
}

export interface DeleterOptions {
  client: ApiClient;
  domain: ApiDomain;
  logger: Logger;
  /** Discovery, called on every pass. */
  discover(): Promise<DiscoveryResult>;
}

export class NamespacedResourcesDeleter {
  private readonly namespaces: ResourceClient<Namespace>;
  /** Operations ("list"/"deletecollection" of a resource) the server turned out not to serve. */
  private readonly unsupported = new Set<string>();

  constructor(private readonly opts: DeleterOptions) {
    this.namespaces = opts.client.resource(NAMESPACES);
  }

  /**
   * One pass over the namespace. Resolves when it is finalized (or gone, or not being deleted);
   * throws ResourcesRemainingError when content waits on finalizers, or the first errors seen.
   */
  async delete(name: string): Promise<void> {
    let ns: Namespace;
    try {
      ns = await this.namespaces.get(name);
    } catch (err) {
      if (isApiError(err, 'NotFound')) return;
      throw err;
    }
    if (!ns.metadata.deletionTimestamp) return;
    const latest = await this.retryOnConflict(ns, (n) => this.markTerminating(n));
    if (!latest?.metadata.deletionTimestamp) return;
    if ((latest.spec?.finalizers ?? []).length === 0) return;
    const { estimate, namespace } = await this.deleteAllContent(latest);
    if (estimate > 0) throw new ResourcesRemainingError(estimate);
    await this.retryOnConflict(namespace, (n) => this.finalize(n));
  }

  /** Runs `fn`, re-reading the namespace after each 409; null when the namespace is gone. */
  private async retryOnConflict(ns: Namespace, fn: (ns: Namespace) => Promise<Namespace>): Promise<Namespace | null> {
    for (let current = ns; ; ) {
      try {
        return await fn(current);
      } catch (err) {
        if (isApiError(err, 'NotFound')) return null;
        if (!isApiError(err, 'Conflict')) throw err;
      }
      const fresh = await this.namespaces.get(ns.metadata.name!).catch((err: unknown) => {
        if (isApiError(err, 'NotFound')) return null;
        throw err;
      });
      if (!fresh) return null;
      if (fresh.metadata.uid !== ns.metadata.uid) throw new Error('namespace uid has changed across retries');
      current = fresh;
    }
  }

  private async markTerminating(ns: Namespace): Promise<Namespace> {
    const status = ns.status ?? {};
    if (status.phase === 'Terminating') return ns;
    return this.namespaces.update({ ...ns, status: { ...status, phase: 'Terminating' } }, 'status');
  }

  /** Removes the domain's finalizer from spec.finalizers (the rest stay, sorted and unique). */
  private async finalize(ns: Namespace): Promise<Namespace> {
    const token = this.opts.domain.namespaceFinalizer;
    const spec = ns.spec ?? {};
    const finalizers = [...new Set((spec.finalizers ?? []).filter((f) => f !== token))].sort();
    return this.namespaces.update({ ...ns, spec: { ...spec, finalizers } }, 'finalize');
  }

  /**
   * Deletes the content of every namespaced resource and records the outcome in the namespace's
   * conditions; returns the seconds to wait for what remains, and the namespace as last written.
   */
  private async deleteAllContent(ns: Namespace): Promise<{ estimate: number; namespace: Namespace }> {
    const namespace = ns.metadata.name!;
    const conditions = new NamespaceConditionUpdater();
    const errors: unknown[] = [];
    let discovery: DiscoveryResult;
    try {
      discovery = await this.opts.discover();
    } catch (err) {
      discovery = { resources: [], failed: new Map([['discovery', toError(err)]]) };
    }
    if (discovery.failed.size) {
      const message = discoveryFailureMessage(discovery.failed);
      conditions.discoveryFailed(message, discovery.failed.size);
      errors.push(new Error(message));
    }
    const deletable = preferredResourcesWith(discovery, ['delete']).filter((r) => r.namespaced);
    const totals: ContentTotals = { remainingByResource: new Map(), remainingByFinalizer: new Map() };
    let estimate = 0;
    const outcomes = await Promise.all(
      deletable.map(async (r) => {
        try {
          return { r, outcome: await this.deleteResourceContent(r, namespace) };
        } catch (err) {
          errors.push(err);
          conditions.deleteContentFailed(messageOf(err));
          return undefined;
        }
      }),
    );
    for (const entry of outcomes) {
      if (!entry) continue;
      const { r, outcome } = entry;
      estimate = Math.max(estimate, outcome.estimateSeconds);
      if (outcome.remaining > 0) totals.remainingByResource.set(`${r.resource}.${r.group}`, outcome.remaining);
      for (const [f, n] of outcome.finalizers) totals.remainingByFinalizer.set(f, (totals.remainingByFinalizer.get(f) ?? 0) + n);
    }
    conditions.contentTotals(totals);
    const status = (ns.status ??= {});
    let namespaceNow = ns;
    if (conditions.update(status)) {
      try {
        namespaceNow = await this.namespaces.update(ns, 'status');
      } catch (err) {
        this.opts.logger.warn("couldn't update status condition for namespace", { namespace, error: messageOf(err) });
      }
    }
    if (errors.length) throw errors.length === 1 ? errors[0] : new AggregateError(errors, errors.map(messageOf).join(', '));
    return { estimate, namespace: namespaceNow };
  }

  private async deleteResourceContent(r: ApiResourceInfo, namespace: string): Promise<ResourceOutcome> {
    const client = this.opts.client.resource(r, namespace);
    const key = gvrKey(r);
    if (!(await this.deleteCollection(client, key, r.verbs))) await this.deleteEachItem(client, key, r.verbs);
    const items = await this.list(client, key, r.verbs);
    const outcome: ResourceOutcome = { estimateSeconds: 0, remaining: items?.length ?? 0, finalizers: new Map() };
    if (!items?.length) return outcome;
    for (const item of items)
      for (const f of item.metadata.finalizers ?? []) outcome.finalizers.set(f, (outcome.finalizers.get(f) ?? 0) + 1);
    if (outcome.finalizers.size === 0) {
      throw new Error(`unexpected items still remain in namespace: ${namespace} for gvr: ${r.group}/${r.version}, Resource=${r.resource}`);
    }
    outcome.estimateSeconds = FINALIZER_ESTIMATE_SECONDS;
    return outcome;
  }

  /** False when the server does not serve deletecollection here (remembered). */
  private async deleteCollection(client: ResourceClient, key: string, verbs: readonly string[]): Promise<boolean> {
    const op = `deletecollection ${key}`;
    if (!verbs.includes('deletecollection') || this.unsupported.has(op)) return false;
    try {
      await client.deleteCollection({ propagationPolicy: 'Background' });
      return true;
    } catch (err) {
      if (!isApiError(err, 'NotFound') && !isApiError(err, 'MethodNotAllowed')) throw err;
      this.unsupported.add(op);
      return false;
    }
  }

  /** The namespace's objects of one resource; undefined when it cannot be listed. */
  private async list(client: ResourceClient, key: string, verbs: readonly string[]): Promise<ApiObject[] | undefined> {
    const op = `list ${key}`;
    if (!verbs.includes('list') || this.unsupported.has(op)) return undefined;
    try {
      return (await client.listAll()).items;
    } catch (err) {
      if (!isApiError(err, 'NotFound') && !isApiError(err, 'MethodNotAllowed')) throw err;
      this.unsupported.add(op);
      return undefined;
    }
  }

  private async deleteEachItem(client: ResourceClient, key: string, verbs: readonly string[]): Promise<void> {
    for (const item of (await this.list(client, key, verbs)) ?? []) {
      try {
        await client.delete(item.metadata.name!, { propagationPolicy: 'Background' });
      } catch (err) {
        if (!isApiError(err, 'NotFound')) throw err;
      }
    }
  }
}
