/** A Pod made from a workload's Pod template (GetPodFromTemplate). */
import type { ApiObject } from '../../apiserver/api/object.js';
import { deepCopy } from '../../apiserver/api/object.js';
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
): ApiObject {
  const meta = template.metadata ?? {};
  const pod: ApiObject = {
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
  if (meta.finalizers?.length) pod.metadata.finalizers = [...meta.finalizers];
  if (controllerRef) pod.metadata.ownerReferences = [controllerRef];
  return pod;
}
