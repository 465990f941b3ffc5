/**
 * Priority: a pod created gets spec.priority (and preemptionPolicy) from its PriorityClass, or from
 * the globalDefault class (the lowest value when several are), or 0 / PreemptLowerPriority when there
 * is none; a class that does not exist, or a priority given that differs, is refused (403). An update
 * keeps the stored priority. Only one PriorityClass may be globalDefault.
 */
import type { PriorityClass } from '../../api/generated/types.js';
import { admissionForbidden } from '../errors.js';
import type { AdmissionPlugin, PluginFactory } from '../interfaces.js';
import { podOf, type Pod } from '../pods.js';
import { isResource, PODS, PRIORITY_CLASSES, writtenObject } from '../resources.js';

function defaultClass(classes: PriorityClass[]): PriorityClass | undefined {
  let found: PriorityClass | undefined;
  for (const c of classes) if (c.globalDefault && (!found || found.value > c.value)) found = c;
  return found;
}

export const newPriority: PluginFactory = ({ reader }): AdmissionPlugin => {
  const classes = () => reader.list(PRIORITY_CLASSES, '');
  return {
    name: 'Priority',
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    handlesResource: (r) => isResource(r, PODS) || isResource(r, PRIORITY_CLASSES),
    async admit(a) {
      const pod = podOf(a);
      if (!pod) return;
      if (a.operation === 'UPDATE') {
        const old = (a.oldObject as Pod | undefined)?.spec;
        if (pod.spec.priority === undefined && old?.priority !== undefined) pod.spec.priority = old.priority;
        if (pod.spec.preemptionPolicy === undefined && old?.preemptionPolicy !== undefined)
          pod.spec.preemptionPolicy = old.preemptionPolicy;
        return;
      }
      let priority = 0;
      let policy: string | undefined = 'PreemptLowerPriority';
      if (!pod.spec.priorityClassName) {
        const dc = defaultClass(await classes());
        if (dc) {
          pod.spec.priorityClassName = dc.metadata.name;
          priority = dc.value;
          policy = dc.preemptionPolicy;
        }
      } else {
        const pc = await reader.get(PRIORITY_CLASSES, '', pod.spec.priorityClassName);
        if (!pc) throw admissionForbidden(a, `no PriorityClass with name ${pod.spec.priorityClassName} was found`);
        priority = pc.value;
        policy = pc.preemptionPolicy;
      }
      if (pod.spec.priority !== undefined && pod.spec.priority !== null && pod.spec.priority !== priority) {
        throw admissionForbidden(
          a,
          `the integer value of priority (${pod.spec.priority}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name`,
        );
      }
      pod.spec.priority = priority;
      if (policy !== undefined) {
        if (pod.spec.preemptionPolicy !== undefined && pod.spec.preemptionPolicy !== policy) {
          throw admissionForbidden(
            a,
            `the string value of PreemptionPolicy (${pod.spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${policy} from the given PriorityClass name`,
          );
        }
        pod.spec.preemptionPolicy = policy;
      }
    },
    async validate(a) {
      const pc = writtenObject(a, PRIORITY_CLASSES);
      if (!pc?.globalDefault || a.operation === 'DELETE') return;
      const dc = defaultClass(await classes());
      if (dc && (a.operation === 'CREATE' || dc.metadata.name !== pc.metadata.name)) {
        throw admissionForbidden(a, `PriorityClass ${dc.metadata.name} is already marked as default. Only one default can exist`);
      }
    },
  };
};
