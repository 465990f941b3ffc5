/**
 * The ClusterRole aggregation controller: every ClusterRole with an aggregationRule gets, as its
 * rules, the union of the rules of the ClusterRoles its selectors match (in name order, each rule
 * once; itself never counted), kept current as ClusterRoles come, go, change labels or rules. Any
 * ClusterRole change requeues every aggregated one, as Kubernetes does; the write is an update of
 * `rules` only, refused with a conflict when the role changed meanwhile (then retried).
 */
import type { ClusterRole, PolicyRule } from '../../apiserver/api/generated/types.js';
import { deepCopy, jsonEqual } from '../../apiserver/api/object.js';
import { isApiError } from '../../apiserver/api/status.js';
import { labelSelectorFromObject } from '../../apiserver/runtime/selectors/label-selector.js';
import type { Controller, ControllerContext } from '../controllerutil/controller-context.js';
import type { Informer } from '../informers/informer.js';
import { runQueueWorkers } from '../controllerutil/run-controller.js';
import type { WorkQueue } from '../workqueue/work-queue.js';
import { resourceOf, type TypedResource } from '../client/api-client.js';

const isAggregated = (r: ClusterRole) => (r.aggregationRule?.clusterRoleSelectors?.length ?? 0) > 0;

/** The rules an aggregated role should hold, given every ClusterRole there is. */
export function aggregatedRules(role: ClusterRole, all: ClusterRole[]): PolicyRule[] {
  const rules: PolicyRule[] = [];
  const sorted = [...all].sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : a.metadata.name! > b.metadata.name! ? 1 : 0));
  for (const selectorObject of role.aggregationRule?.clusterRoleSelectors ?? []) {
    let selector;
    try {
      selector = labelSelectorFromObject(selectorObject);
    } catch {
      continue; // validation keeps bad selectors out; one that slipped by selects nothing
    }
    for (const other of sorted) {
      if (other.metadata.name === role.metadata.name || !selector.matches(other.metadata.labels)) continue;
      for (const rule of other.rules ?? []) if (!rules.some((r) => jsonEqual(r, rule))) rules.push(rule);
    }
  }
  return rules;
}

export class ClusterRoleAggregationController implements Controller {
  private readonly clusterRoles: Informer<ClusterRole>;
  readonly queue: WorkQueue<string>;
  private readonly gvr: TypedResource<ClusterRole>;

  constructor(private readonly ctx: ControllerContext) {
    this.gvr = resourceOf<ClusterRole>(ctx.domain.group('rbac.authorization.k8s.io'), 'v1', 'clusterroles');
    this.queue = ctx.newQueue('clusterrole_aggregation');
    this.clusterRoles = ctx.informers.forResource(this.gvr);
    const enqueueAll = () => {
      for (const r of this.clusterRoles.indexer.list()) if (isAggregated(r)) this.queue.add(r.metadata.name!);
    };
    this.clusterRoles.addEventHandler({ onAdd: enqueueAll, onUpdate: enqueueAll, onDelete: enqueueAll });
  }

  run(signal: AbortSignal): Promise<void> {
    return runQueueWorkers(signal, this, {
      informers: [this.clusterRoles],
      workers: 5,
      logger: this.ctx.logger,
      failure: 'aggregating a ClusterRole',
      itemField: 'clusterRole',
    });
  }

  async sync(name: string): Promise<void> {
    const role = this.clusterRoles.indexer.get(name);
    if (!role || !isAggregated(role)) return;
    const rules = aggregatedRules(role, this.clusterRoles.indexer.list());
    if (jsonEqual(rules, role.rules ?? [])) return;
    const updated = deepCopy(role);
    updated.rules = rules;
    try {
      await this.ctx.client.resource(this.gvr).update(updated);
    } catch (err) {
      if (isApiError(err, 'NotFound')) return;
      throw err;
    }
  }
}
