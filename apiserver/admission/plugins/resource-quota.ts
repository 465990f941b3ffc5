/**
 * ResourceQuota: a write that adds usage (a create; a claim or a service that grows) must fit every matching quota
 * of its namespace (used + requested ≤ hard for each resource the quota limits), else 403
 * `exceeded quota: …`; a pod must state the requests/limits a quota limits (`failed quota: …: must
 * specify …`). The charge is written into each quota's status.used by compare-and-swap on the quota's
 * resourceVersion, so concurrent creates through any number of replicas neither lose nor double-count
 * usage: a conflict re-reads the quota and checks again. A dry run checks without charging.
 *
 * The same swap records a reservation for the write (api/quota-reservations.ts), which lets the quota
 * controller's recount of the namespace count a charged write that is not stored yet: without it a
 * recount between charge and store writes a lower status.used, and the quota admits more than its
 * hard limit. Once the write is stored its reservations are settled (removed, used unchanged); when
 * a later step or the write fails they are refunded (removed, used given back). Both act only on a
 * reservation still there, so a reservation the controller dropped is never given back twice.
 */
import { randomUUID } from 'node:crypto';
import type { ApiObject } from '../../api/object.js';
import { type QuotaReservation, reservationsAnnotation, reservationsOf, setReservations } from '../../api/quota-reservations.js';
import * as status from '../../api/status.js';
import { admissionForbidden } from '../errors.js';
import type { AdmissionAttributes, AdmissionPlugin, ObjectReader, ObjectWriter, PluginFactory } from '../interfaces.js';
import type { PodSpec } from '../pods.js';
import { missingPodResources, usageOf } from '../quota/usage.js';
import { type QuotaSpec, quotaMatches } from '../quota/scopes.js';
import { addLists, cmp, type ResourceList, subtractLists } from '../resource-list.js';
import { kubeResourceOf, RESOURCE_QUOTAS } from '../resources.js';

/**
 * Conflicts come from other replicas, the quota controller and this replica's refunds (one replica
 * charges and settles a namespace one write at a time).
 */
const CAS_ATTEMPTS = 50;
const jitter = () => new Promise((r) => setTimeout(r, Math.random() * 10));

type Quota = ApiObject & { spec?: QuotaSpec; status?: { hard?: ResourceList; used?: ResourceList } };
/** The quotas as this plugin reads them. */
const QUOTAS = kubeResourceOf<Quota>(RESOURCE_QUOTAS);

const pretty = (list: ResourceList) =>
  Object.keys(list)
    .sort()
    .map((k) => `${k}=${list[k]}`)
    .join(',');

/** The part of a usage a quota limits. */
function limited(usage: ResourceList, hard: ResourceList): ResourceList {
  return Object.fromEntries(Object.entries(usage).filter(([k]) => hard[k] !== undefined));
}

/** The pod spec of a pod write, whose scopes and compute resources quotas look at. */
function podSpecOf(a: AdmissionAttributes): PodSpec | undefined {
  return a.resource.kubernetesGroup === '' && a.resource.plural === 'pods' ? (a.object as { spec?: PodSpec }).spec : undefined;
}

function hardOf(quota: Quota): ResourceList {
  return quota.spec?.hard ?? quota.status?.hard ?? {};
}

/**
 * Adds `delta` to a quota's status.used and changes its reservations, in one CAS; false when the
 * quota changed meanwhile (or is gone).
 */
async function swap(
  writer: ObjectWriter,
  key: string,
  quota: Quota,
  delta: ResourceList,
  change: { add?: [string, QuotaReservation]; remove?: string },
): Promise<boolean> {
  const next = structuredClone(quota);
  next.status = { hard: hardOf(quota), used: addLists(quota.status?.used ?? {}, delta) };
  const reservations = reservationsOf(quota, key);
  if (change.remove) delete reservations[change.remove];
  if (change.add) reservations[change.add[0]] = change.add[1];
  setReservations(next, key, reservations);
  try {
    await writer.replace(RESOURCE_QUOTAS, quota.metadata.namespace ?? '', next, 'status');
    return true;
  } catch (err) {
    if (status.isApiError(err, 'Conflict') || status.isApiError(err, 'NotFound')) return false;
    throw err;
  }
}

/**
 * Removes reservation `id` from a quota — giving its usage back when `refund` — read, change, CAS,
 * until it sticks; nothing when the reservation (or the quota) is gone already.
 */
async function release(
  reader: ObjectReader,
  writer: ObjectWriter,
  key: string,
  namespace: string,
  name: string,
  id: string,
  refund: boolean,
) {
  for (let i = 0; i < CAS_ATTEMPTS; i++) {
    const quota = await reader.get(QUOTAS, namespace, name);
    if (!quota) return;
    const reservation = reservationsOf(quota, key)[id];
    if (!reservation) return;
    if (await swap(writer, key, quota, refund ? subtractLists({}, reservation.used) : {}, { remove: id })) return;
    await jitter();
  }
}

export const newResourceQuota: PluginFactory = ({ domain, reader, writer }): AdmissionPlugin => {
  const storageClassGroup = domain.group('storage.k8s.io');
  const key = reservationsAnnotation(domain);

  // A validator's object is copied when first read: an update that cannot grow usage leaves it unread.
  // Updates grow usage only for claims (storage) and services (a type change to NodePort or
  // LoadBalancer, more ports), as Kubernetes' evaluators for them charge updates.
  const growsOnUpdate = (a: AdmissionAttributes) =>
    a.resource.group === '' && (a.resource.plural === 'persistentvolumeclaims' || a.resource.plural === 'services');
  const mayGrowUsage = (a: AdmissionAttributes) => a.operation === 'CREATE' || growsOnUpdate(a);

  const usageDelta = (a: AdmissionAttributes): ResourceList | undefined => {
    // Served group names, as the quota controller finds the resources by discovery.
    const group = a.resource.group;
    const resource = a.resource.plural;
    if (a.operation === 'CREATE') return usageOf(group, resource, () => a.object!, storageClassGroup);
    // Updates charge only what grows: a claim's storage, a service's node ports and load balancers.
    if (!growsOnUpdate(a) || !a.oldObject) return undefined;
    const now = usageOf(group, resource, () => a.object!, storageClassGroup);
    const before = usageOf(group, resource, () => a.oldObject!, storageClassGroup);
    const grown = Object.fromEntries(Object.entries(subtractLists(now, before)).filter(([, v]) => cmp(v, '0') > 0));
    return Object.keys(grown).length ? grown : undefined;
  };

  /** One charge at a time per namespace in this replica, as Kubernetes' quota evaluator queues them. */
  const queues = new Map<string, Promise<unknown>>();
  const serialized = <T>(namespace: string, fn: () => Promise<T>): Promise<T> => {
    const prev = queues.get(namespace) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    const tail = next.catch(() => {});
    queues.set(namespace, tail);
    void tail.then(() => {
      if (queues.get(namespace) === tail) queues.delete(namespace);
    });
    return next;
  };

  async function admitAndCharge(a: AdmissionAttributes, delta: ResourceList): Promise<void> {
    {
      const podSpec = podSpecOf(a);
      for (let attempt = 0; ; attempt++) {
        const quotas = (await reader.list(QUOTAS, a.namespace))
          .filter((quota) => quotaMatches(quota.spec ?? {}, podSpec))
          .sort((x, y) => ((x.metadata.name ?? '') < (y.metadata.name ?? '') ? -1 : 1));
        const charges: { quota: Quota; delta: ResourceList }[] = [];
        for (const quota of quotas) {
          const hard = hardOf(quota);
          const requested = limited(delta, hard);
          if (podSpec) {
            const missing = missingPodResources(podSpec, hard);
            if (missing.length) throw admissionForbidden(a, `failed quota: ${quota.metadata.name}: must specify ${missing.join('; ')}`);
          }
          if (Object.keys(requested).length === 0) continue;
          const used = quota.status?.used ?? {};
          const over = Object.keys(requested).filter((k) => cmp(addLists({ [k]: used[k] ?? '0' }, { [k]: requested[k] })[k], hard[k]) > 0);
          if (over.length) {
            const pick = (list: ResourceList) => Object.fromEntries(over.map((k) => [k, list[k] ?? '0']));
            throw admissionForbidden(
              a,
              `exceeded quota: ${quota.metadata.name}, requested: ${pretty(pick(requested))}, used: ${pretty(pick(used))}, limited: ${pretty(pick(hard))}`,
            );
          }
          charges.push({ quota, delta: requested });
        }
        if (a.dryRun || charges.length === 0) return;
        const uid = a.object?.metadata.uid ?? '';
        const at = Date.now();
        const done: { name: string; id: string }[] = [];
        let conflicted = false;
        for (const c of charges) {
          const id = randomUUID();
          const reservation: QuotaReservation = { uid, ...(a.operation === 'UPDATE' ? { update: true as const } : {}), used: c.delta, at };
          if (await swap(writer, key, c.quota, c.delta, { add: [id, reservation] })) done.push({ name: c.quota.metadata.name!, id });
          else {
            conflicted = true;
            break;
          }
        }
        const undo = (d: { name: string; id: string }) => release(reader, writer, key, a.namespace, d.name, d.id, true);
        const settle = (d: { name: string; id: string }) => release(reader, writer, key, a.namespace, d.name, d.id, false);
        if (conflicted) for (const d of done) await undo(d);
        if (!conflicted) {
          for (const d of done) {
            a.rollback.add(() => undo(d));
            a.rollback.onStored(() => serialized(a.namespace, () => settle(d)));
          }
          return;
        }
        if (attempt + 1 >= CAS_ATTEMPTS) {
          throw status.conflict(
            { group: '', resource: 'resourcequotas' },
            charges[0].quota.metadata.name!,
            'quota usage kept changing; try again',
          );
        }
        await jitter();
      }
    }
  }

  return {
    name: 'ResourceQuota',
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    async validate(a) {
      // CREATE and UPDATE always carry the object.
      if (!a.resource.namespaced || !a.namespace || a.subresource || !mayGrowUsage(a)) return;
      const delta = usageDelta(a);
      if (!delta) return;
      // Without a matching quota that limits this usage (or, for a pod, any matching quota: it
      // checks the pod states what the quota limits) there is nothing to check or charge. That is
      // found by a consistent read outside the queue, so such writes do not wait for one another.
      const podSpec = podSpecOf(a);
      const quotas = await reader.list(QUOTAS, a.namespace);
      const concerned = (q: Quota) =>
        quotaMatches(q.spec ?? {}, podSpec) && (!!podSpec || Object.keys(limited(delta, hardOf(q))).length > 0);
      if (!quotas.some(concerned)) return;
      await serialized(a.namespace, () => admitAndCharge(a, delta));
    },
  };
};
