/** The Secrets a Pod references (Kubernetes' VisitPodSecretNames): pull secrets, volumes, env and envFrom. */
import type { ApiObject } from '../../apiserver/api/object.js';

type Obj = Record<string, unknown>;

const objs = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);
const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
const ref = (o: unknown, key = 'secretRef') => str(((o as Obj | undefined)?.[key] as Obj | undefined)?.name);

export function podSecretNames(pod: ApiObject): Set<string> {
  const spec = (pod.spec ?? {}) as Obj;
  const names = new Set<string>();
  const add = (n: string | undefined) => n && names.add(n);
  for (const s of objs(spec.imagePullSecrets)) add(str(s.name));
  for (const c of [...objs(spec.initContainers), ...objs(spec.containers), ...objs(spec.ephemeralContainers)]) {
    for (const e of objs(c.envFrom)) add(ref(e));
    for (const e of objs(c.env)) add(ref(e.valueFrom, 'secretKeyRef'));
  }
  for (const v of objs(spec.volumes)) {
    add(str((v.secret as Obj | undefined)?.secretName));
    add(str((v.azureFile as Obj | undefined)?.secretName));
    for (const source of objs((v.projected as Obj | undefined)?.sources)) add(str((source.secret as Obj | undefined)?.name));
    for (const type of ['cephfs', 'cinder', 'flexVolume', 'iscsi', 'rbd', 'scaleIO', 'storageos']) add(ref(v[type]));
    add(ref(v.csi, 'nodePublishSecretRef'));
  }
  return names;
}
