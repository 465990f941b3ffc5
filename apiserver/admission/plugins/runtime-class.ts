/**
 * RuntimeClass: a pod created with spec.runtimeClassName gets the class's overhead (podFixed) and
 * scheduling (nodeSelector merged, tolerations added); a missing class, an overhead that differs, or a
 * nodeSelector that conflicts is refused (403). The validating half checks the overhead again, and that
 * no overhead is set without a class that defines one.
 */
import type { RuntimeClass } from '../../api/generated/types.js';
import { admissionForbidden } from '../errors.js';
import type { AdmissionAttributes, AdmissionPlugin, PluginFactory } from '../interfaces.js';
import { podOf, type Pod, type Toleration } from '../pods.js';
import { listsEqual } from '../resource-list.js';
import { isResource, PODS, RUNTIME_CLASSES } from '../resources.js';

const sameToleration = (x: Toleration, y: Toleration) =>
  (x.key ?? '') === (y.key ?? '') &&
  (x.operator ?? 'Equal') === (y.operator ?? 'Equal') &&
  (x.value ?? '') === (y.value ?? '') &&
  (x.effect ?? '') === (y.effect ?? '') &&
  x.tolerationSeconds === y.tolerationSeconds;

export const newRuntimeClass: PluginFactory = ({ reader }): AdmissionPlugin => {
  const prepare = async (a: AdmissionAttributes): Promise<{ pod: Pod; rc: RuntimeClass | null } | undefined> => {
    const pod = podOf(a);
    if (!pod) return undefined;
    const name = pod.spec.runtimeClassName;
    if (!name) return { pod, rc: null };
    const rc = await reader.get(RUNTIME_CLASSES, '', name);
    if (!rc) throw admissionForbidden(a, `pod rejected: RuntimeClass ${JSON.stringify(name)} not found`);
    return { pod, rc };
  };
  return {
    name: 'RuntimeClass',
    handles: (op) => op === 'CREATE',
    handlesResource: (r) => isResource(r, PODS),
    async admit(a) {
      const p = await prepare(a);
      if (!p?.rc) return;
      const { pod, rc } = p;
      const fixed = rc.overhead?.podFixed;
      if (fixed) {
        if (pod.spec.overhead && !listsEqual(pod.spec.overhead, fixed)) {
          throw admissionForbidden(a, "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead");
        }
        pod.spec.overhead = { ...fixed };
      }
      if (!rc.scheduling) return;
      const selector = { ...(pod.spec.nodeSelector ?? {}) };
      for (const [k, v] of Object.entries(rc.scheduling.nodeSelector ?? {})) {
        if (selector[k] !== undefined && selector[k] !== v) {
          throw admissionForbidden(
            a,
            `conflict: runtimeClass.scheduling.nodeSelector[${k}] = ${v}; pod.spec.nodeSelector[${k}] = ${selector[k]}`,
          );
        }
        selector[k] = v;
      }
      if (Object.keys(selector).length) pod.spec.nodeSelector = selector;
      const tolerations = [...(pod.spec.tolerations ?? [])];
      for (const t of rc.scheduling.tolerations ?? []) if (!tolerations.some((x) => sameToleration(x, t))) tolerations.push(t);
      if (tolerations.length) pod.spec.tolerations = tolerations;
    },
    async validate(a) {
      const p = await prepare(a);
      if (!p) return;
      const fixed = p.rc?.overhead?.podFixed;
      if (fixed) {
        if (!listsEqual(p.pod.spec.overhead, fixed)) {
          throw admissionForbidden(a, "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead");
        }
      } else if (p.pod.spec.overhead) {
        throw admissionForbidden(a, 'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead');
      }
    },
  };
};
