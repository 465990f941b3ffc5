/**
 * Binding a pod to a node (pods/binding and the legacy `bindings` collection, Kubernetes' BindingREST):
 * sets spec.nodeName once, merges the Binding's annotations and marks the pod PodScheduled; a pod
 * already bound (or being deleted, or with scheduling gates) is a 409 on pods/binding.
 */
import { asApiObject, asKind } from '../../../api/object.js';
import { NULL_TIME, timestamp } from '../../../api/object-meta.js';
import * as status from '../../../api/status.js';
import { fieldPath, notSupported, required } from '../../../api/field-errors.js';
import type { SubresourceStrategy } from '../../../api/strategy.js';
import type { Binding, Pod } from '../../../api/generated/types.js';
import { successStatus, type StoreAction } from '../../generic/actions.js';

const BINDING_GR = { group: '', resource: 'pods/binding' };

/** The pods/binding subresource: create only; the store writes the pod the action computed. */
export const podBindingSubresource: SubresourceStrategy = {
  verbs: ['create'],
  action: { group: '', version: 'v1', kind: 'Binding', schema: 'core.v1.Binding' },
  prepareForUpdate: (obj) => obj,
};

/** ValidatePodBinding. */
function validateBinding(binding: Binding): void {
  const errs = [];
  const kind = binding.target?.kind ?? '';
  if (kind && kind !== 'Node') errs.push(notSupported(fieldPath('target', 'kind'), kind, ['Node', '<empty>']));
  if (!binding.target?.name) errs.push(required(fieldPath('target', 'name')));
  if (errs.length) throw status.invalid({ group: '', kind: 'Binding' }, binding.metadata.name ?? '', errs);
}

/** podutil.UpdatePodCondition for PodScheduled=True. */
function markScheduled(pod: Pod, now: Date): void {
  pod.status ??= {};
  const conditions = (pod.status.conditions ??= []);
  const old = conditions.find((c) => c.type === 'PodScheduled');
  const condition = { type: 'PodScheduled', status: 'True', lastProbeTime: NULL_TIME, lastTransitionTime: timestamp(now) };
  if (!old) conditions.push(condition);
  else {
    if (old.status === 'True') condition.lastTransitionTime = old.lastTransitionTime ?? condition.lastTransitionTime;
    Object.assign(old, condition);
    delete old.reason;
    delete old.message;
  }
}

export const bindPodAction: StoreAction = {
  async run(stores, ctx, name, body) {
    const binding = asKind<Binding>(body);
    if (name !== (binding.metadata.name ?? '')) throw status.badRequest('name in URL does not match name in Binding object');
    validateBinding(binding);
    const pods = stores.store('', 'v1', 'pods');
    await pods.update(
      ctx,
      name,
      (current) => {
        if (!current) throw status.notFound(pods.groupResource, name);
        const pod = asKind<Pod>(current);
        const why = (reason: string) => status.conflict(BINDING_GR, name, reason);
        if (pod.metadata.deletionTimestamp) throw why(`pod ${name} is being deleted, cannot be assigned to a host`);
        if (pod.spec?.nodeName) throw why(`pod ${name} is already assigned to node "${pod.spec.nodeName}"`);
        if (pod.spec?.schedulingGates?.length) throw why(`pod ${name} has non-empty .spec.schedulingGates`);
        if (binding.metadata.uid && binding.metadata.uid !== pod.metadata.uid) {
          throw why(`Precondition failed: UID in precondition: ${binding.metadata.uid}, UID in object meta: ${pod.metadata.uid ?? ''}`);
        }
        (pod.spec ??= { containers: [] }).nodeName = binding.target.name;
        if (binding.metadata.annotations) pod.metadata.annotations = { ...pod.metadata.annotations, ...binding.metadata.annotations };
        markScheduled(pod, ctx.now);
        return asApiObject(pod);
      },
      { subresource: 'binding' },
    );
    return successStatus(201);
  },
};
