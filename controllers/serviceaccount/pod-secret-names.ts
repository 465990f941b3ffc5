/** The Secrets a Pod references (Kubernetes' VisitPodSecretNames): pull secrets, volumes, env and envFrom. */
import type { Container, EphemeralContainer, Pod } from '../../apiserver/api/generated/types.js';

export function podSecretNames(pod: Pod): Set<string> {
  const names = new Set<string>();
  const add = (n: string | undefined) => n && names.add(n);
  const spec = pod.spec;
  if (!spec) return names;
  for (const s of spec.imagePullSecrets ?? []) add(s.name);
  const containers: (Container | EphemeralContainer)[] = [
    ...(spec.initContainers ?? []),
    ...(spec.containers ?? []),
    ...(spec.ephemeralContainers ?? []),
  ];
  for (const c of containers) {
    for (const e of c.envFrom ?? []) add(e.secretRef?.name);
    for (const e of c.env ?? []) add(e.valueFrom?.secretKeyRef?.name);
  }
  for (const v of spec.volumes ?? []) {
    add(v.secret?.secretName);
    add(v.azureFile?.secretName);
    for (const source of v.projected?.sources ?? []) add(source.secret?.name);
    for (const source of [v.cephfs, v.cinder, v.flexVolume, v.iscsi, v.rbd, v.scaleIO, v.storageos]) add(source?.secretRef?.name);
    add(v.csi?.nodePublishSecretRef?.name);
  }
  return names;
}
