/**
 * AlwaysPullImages: every container of a pod gets imagePullPolicy Always, so a node's cached image is
 * never used without the registry checking the pod's credentials; the validating half refuses a pod
 * that still has another policy. An update that brings no new image is left alone.
 */
import { admissionForbidden } from '../errors.js';
import type { AdmissionAttributes, AdmissionPlugin, PluginFactory } from '../interfaces.js';
import { type Container, type Pod, podOf, type PodSpec } from '../pods.js';

/** Every container with its field path, as Kubernetes' VisitContainersWithPath orders them. */
function visit(spec: PodSpec, fn: (c: Container, path: string) => void): void {
  (spec.initContainers ?? []).forEach((c, i) => fn(c, `spec.initContainers[${i}]`));
  (spec.containers ?? []).forEach((c, i) => fn(c, `spec.containers[${i}]`));
  (spec.ephemeralContainers ?? []).forEach((c, i) => fn(c, `spec.ephemeralContainers[${i}]`));
}

function podToCheck(a: AdmissionAttributes): Pod | undefined {
  const pod = podOf(a);
  if (!pod || a.operation !== 'UPDATE') return pod;
  const oldImages = new Set<string | undefined>();
  visit((a.oldObject as Pod).spec, (c) => oldImages.add(c.image));
  let fresh = false;
  visit(pod.spec, (c) => {
    if (!oldImages.has(c.image)) fresh = true;
  });
  return fresh ? pod : undefined;
}

export const newAlwaysPullImages: PluginFactory = (): AdmissionPlugin => ({
  name: 'AlwaysPullImages',
  handles: (op) => op === 'CREATE' || op === 'UPDATE',
  async admit(a) {
    const pod = podToCheck(a);
    if (pod) visit(pod.spec, (c) => (c.imagePullPolicy = 'Always'));
  },
  async validate(a) {
    const pod = podToCheck(a);
    if (!pod) return;
    const wrong: string[] = [];
    visit(pod.spec, (c, path) => {
      if (c.imagePullPolicy !== 'Always') {
        wrong.push(`${path}.imagePullPolicy: Unsupported value: ${JSON.stringify(c.imagePullPolicy ?? '')}: supported values: "Always"`);
      }
    });
    if (wrong.length) throw admissionForbidden(a, wrong.join(', '));
  },
});
