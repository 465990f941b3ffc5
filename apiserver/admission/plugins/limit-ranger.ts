/**
 * LimitRanger: the LimitRanges of a namespace default and bound what its pods and claims ask for.
 * Mutating: each container (and init container) of a created pod gets the Container items' default
 * limits and default requests it lacks, and the pod an annotation `<prefix>/limit-ranger` saying what
 * was set. Validating: per Container and per Pod (summed as the scheduler sums them) min, max and
 * maxLimitRequestRatio; per PersistentVolumeClaim min and max of the storage request. Every violation
 * is listed in one 403. Pod updates and objects being deleted are not checked, as Kubernetes.
 */
import type { ApiObject } from '../../api/object.js';
import { canonicalQuantityText, compareQuantities, formatQuantity, scaledValue } from '../../api/quantity.js';
import { admissionForbidden } from '../errors.js';
import type { AdmissionAttributes, AdmissionPlugin, PluginFactory } from '../interfaces.js';
import { type Container, type Pod, podOf } from '../pods.js';
import { addQuantities, q, type ResourceList } from '../resource-list.js';
import { isResource, kubeResourceOf, LIMIT_RANGES, PERSISTENT_VOLUME_CLAIMS, PODS } from '../resources.js';

interface LimitRangeItem {
  type: string;
  max?: ResourceList;
  min?: ResourceList;
  default?: ResourceList;
  defaultRequest?: ResourceList;
  maxLimitRequestRatio?: ResourceList;
}
type LimitRange = ApiObject & { spec?: { limits?: LimitRangeItem[] } };
/** The limit ranges as this plugin reads them. */
const RANGES = kubeResourceOf<LimitRange>(LIMIT_RANGES);

const MAX_MILLI = 2n ** 63n / 1000n;
const text = (v: string) => canonicalQuantityText(v);

/** Kubernetes' requestLimitEnforcedValues: milli-units unless one of them is too large for it. */
function observed(...values: (string | undefined)[]): bigint[] {
  const qs = values.map((v) => q(v ?? '0'));
  const milli = qs.every((x) => scaledValue(x, 0) <= MAX_MILLI);
  return qs.map((x) => scaledValue(x, milli ? -3 : 0));
}

function minConstraint(type: string, name: string, enforced: string, req: ResourceList, lim: ResourceList): string | undefined {
  const [r, l, e] = observed(req[name], lim[name], enforced);
  if (req[name] === undefined) return `minimum ${name} usage per ${type} is ${text(enforced)}.  No request is specified`;
  if (r < e) return `minimum ${name} usage per ${type} is ${text(enforced)}, but request is ${text(req[name])}`;
  if (lim[name] !== undefined && l < e) return `minimum ${name} usage per ${type} is ${text(enforced)}, but limit is ${text(lim[name])}`;
  return undefined;
}

function maxRequestConstraint(type: string, name: string, enforced: string, req: ResourceList): string | undefined {
  const [r, , e] = observed(req[name], '0', enforced);
  if (req[name] === undefined) return `maximum ${name} usage per ${type} is ${text(enforced)}.  No request is specified`;
  if (r > e) return `maximum ${name} usage per ${type} is ${text(enforced)}, but request is ${text(req[name])}`;
  return undefined;
}

function maxConstraint(type: string, name: string, enforced: string, req: ResourceList, lim: ResourceList): string | undefined {
  const [r, l, e] = observed(req[name], lim[name], enforced);
  if (lim[name] === undefined) return `maximum ${name} usage per ${type} is ${text(enforced)}.  No limit is specified`;
  if (l > e) return `maximum ${name} usage per ${type} is ${text(enforced)}, but limit is ${text(lim[name])}`;
  if (req[name] !== undefined && r > e) return `maximum ${name} usage per ${type} is ${text(enforced)}, but request is ${text(req[name])}`;
  return undefined;
}

function ratioConstraint(type: string, name: string, enforced: string, req: ResourceList, lim: ResourceList): string | undefined {
  const [r, l] = observed(req[name], lim[name], enforced);
  const head = `${name} max limit to request ratio per ${type} is ${text(enforced)}`;
  if (req[name] === undefined || r === 0n) return `${head}, but no request is specified or request is 0`;
  if (lim[name] === undefined || l === 0n) return `${head}, but no limit is specified or limit is 0`;
  const ratio = Number(l) / Number(r);
  const e = q(enforced);
  const small = scaledValue(e, 0) <= MAX_MILLI;
  const over = small ? ratio * 1000 > Number(scaledValue(e, -3)) : ratio > Number(scaledValue(e, 0));
  return over ? `${head}, but provided ratio is ${ratio.toFixed(6)}` : undefined;
}

function add(list: ResourceList, more: ResourceList | undefined): void {
  for (const [k, v] of Object.entries(more ?? {})) list[k] = list[k] === undefined ? v : formatQuantity(addQuantities(q(list[k]), q(v)));
}

function maxInto(list: ResourceList, more: ResourceList): void {
  for (const [k, v] of Object.entries(more)) if (list[k] === undefined || compareQuantities(q(v), q(list[k])) > 0) list[k] = v;
}

/** The pod's requests or limits as the scheduler counts them: containers summed, init containers at their peak. */
function podTotal(pod: Pod, which: 'requests' | 'limits'): ResourceList {
  const total: ResourceList = {};
  for (const c of pod.spec.containers ?? []) add(total, c.resources?.[which]);
  const sidecars: ResourceList = {};
  const initPeak: ResourceList = {};
  for (const c of pod.spec.initContainers ?? []) {
    const own = c.resources?.[which] ?? {};
    if (c.restartPolicy === 'Always') {
      add(total, own);
      add(sidecars, own);
      maxInto(initPeak, { ...sidecars });
    } else {
      const tmp: ResourceList = {};
      add(tmp, own);
      add(tmp, sidecars);
      maxInto(initPeak, tmp);
    }
  }
  maxInto(total, initPeak);
  return total;
}

const sorted = (list: ResourceList | undefined) => Object.entries(list ?? {}).sort(([a], [b]) => (a < b ? -1 : 1));

function checkBounds(type: string, item: LimitRangeItem, req: ResourceList, lim: ResourceList): string[] {
  const errs: (string | undefined)[] = [];
  for (const [k, v] of sorted(item.min)) errs.push(minConstraint(type, k, v, req, lim));
  for (const [k, v] of sorted(item.max)) errs.push(maxConstraint(type, k, v, req, lim));
  for (const [k, v] of sorted(item.maxLimitRequestRatio)) errs.push(ratioConstraint(type, k, v, req, lim));
  return errs.filter((e): e is string => e !== undefined);
}

function validatePod(ranges: LimitRange[], pod: Pod): string[] {
  const errs: string[] = [];
  for (const item of ranges.flatMap((r) => r.spec?.limits ?? [])) {
    if (item.type === 'Container') {
      for (const c of [...(pod.spec.containers ?? []), ...(pod.spec.initContainers ?? [])]) {
        errs.push(...checkBounds('Container', item, c.resources?.requests ?? {}, c.resources?.limits ?? {}));
      }
    }
    if (item.type === 'Pod') errs.push(...checkBounds('Pod', item, podTotal(pod, 'requests'), podTotal(pod, 'limits')));
  }
  return errs;
}

function validateClaim(ranges: LimitRange[], claim: ApiObject): string[] {
  const requests = (claim as { spec?: { resources?: { requests?: ResourceList } } }).spec?.resources?.requests ?? {};
  const errs: (string | undefined)[] = [];
  for (const item of ranges.flatMap((r) => r.spec?.limits ?? [])) {
    if (item.type !== 'PersistentVolumeClaim') continue;
    for (const [k, v] of sorted(item.min)) errs.push(minConstraint('PersistentVolumeClaim', k, v, requests, {}));
    for (const [k, v] of sorted(item.max)) errs.push(maxRequestConstraint('PersistentVolumeClaim', k, v, requests));
  }
  return errs.filter((e): e is string => e !== undefined);
}

function mergeDefaults(c: Container, limits: ResourceList, requests: ResourceList, what: string, notes: string[]): void {
  const resources = (c.resources ??= {});
  const setLimits: string[] = [];
  const setRequests: string[] = [];
  for (const [k, v] of Object.entries(limits)) {
    if ((resources.limits ??= {})[k] === undefined) {
      resources.limits[k] = v;
      setLimits.push(k);
    }
  }
  for (const [k, v] of Object.entries(requests)) {
    if ((resources.requests ??= {})[k] === undefined) {
      resources.requests[k] = v;
      setRequests.push(k);
    }
  }
  if (resources.limits && Object.keys(resources.limits).length === 0) delete resources.limits;
  if (resources.requests && Object.keys(resources.requests).length === 0) delete resources.requests;
  if (setRequests.length) notes.push(`${setRequests.sort().join(', ')} request for ${what} ${c.name}`);
  if (setLimits.length) notes.push(`${setLimits.sort().join(', ')} limit for ${what} ${c.name}`);
}

/** Aggregated as Kubernetes' utilerrors.NewAggregate prints several errors. */
function aggregate(errs: string[]): string {
  return errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`;
}

export const newLimitRanger: PluginFactory = ({ domain, reader }): AdmissionPlugin => {
  const annotation = `${domain.labelPrefix}/limit-ranger`;
  const applies = (a: AdmissionAttributes) => {
    // The resource first: a validator's object is copied when first read.
    const pods = isResource(a.resource, PODS);
    if (a.subresource || !(pods || isResource(a.resource, PERSISTENT_VOLUME_CLAIMS))) return false;
    if (!a.object || a.oldObject?.metadata.deletionTimestamp) return false;
    if (podOf(a)) return a.operation === 'CREATE';
    return !pods;
  };
  const ranges = (a: AdmissionAttributes) => reader.list(RANGES, a.namespace);
  return {
    name: 'LimitRanger',
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    handlesResource: (r) => isResource(r, PODS) || isResource(r, PERSISTENT_VOLUME_CLAIMS),
    async admit(a) {
      if (!applies(a)) return;
      const pod = podOf(a);
      if (!pod) return;
      for (const range of await ranges(a)) {
        const limits: ResourceList = {};
        const requests: ResourceList = {};
        for (const item of range.spec?.limits ?? []) {
          if (item.type !== 'Container') continue;
          Object.assign(limits, item.default);
          Object.assign(requests, item.defaultRequest);
        }
        const notes: string[] = [];
        for (const c of pod.spec.containers ?? []) mergeDefaults(c, limits, requests, 'container', notes);
        for (const c of pod.spec.initContainers ?? []) mergeDefaults(c, limits, requests, 'init container', notes);
        if (notes.length)
          pod.metadata.annotations = { ...pod.metadata.annotations, [annotation]: `LimitRanger plugin set: ${notes.join('; ')}` };
      }
    },
    async validate(a) {
      if (!applies(a)) return;
      const list = await ranges(a);
      if (list.length === 0) return;
      const pod = podOf(a);
      const errs = pod ? validatePod(list, pod) : validateClaim(list, a.object!);
      if (errs.length) throw admissionForbidden(a, aggregate(errs));
    },
  };
};
