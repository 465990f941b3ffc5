/** A Pod made from a workload's Pod template (GetPodFromTemplate). */
import type { Pod, PodSpec } from '../../apiserver/api/generated/types.js';
import { type ApiObject, asKind, deepCopy } from '../../apiserver/api/object.js';
import type { OwnerReference } from '../../apiserver/api/object-meta.js';

export interface PodTemplate {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string>; finalizers?: string[] };
  /** Any kind's Pod spec (the generated PodSpec included); copied as it is. */
  spec?: object;
}

/** The Pod: the template's labels, annotations, finalizers and spec, named `<prefix>-<random>` by the server. */
export function podFromTemplate(
  template: PodTemplate,
  namespace: string,
  generateNamePrefix: string,
  controllerRef?: OwnerReference,
): Pod & { spec: PodSpec } {
  const meta = template.metadata ?? {};
  // The template's spec is a Pod spec (its owner's validation checked it); a template without one
  // gives an empty spec, which the server refuses as it would any Pod without containers.
  const made: ApiObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      namespace,
      generateName: `${generateNamePrefix}-`,
      labels: { ...meta.labels },
      annotations: { ...meta.annotations },
    },
    spec: deepCopy(template.spec ?? {}),
  };
  const pod = asKind<Pod & { spec: PodSpec }>(made);
  if (meta.finalizers?.length) pod.metadata.finalizers = [...meta.finalizers];
  if (controllerRef) pod.metadata.ownerReferences = [controllerRef];
  return pod;
}
