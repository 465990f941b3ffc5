/**
 * The Node authorizer's graph (Kubernetes' node authorizer graph, reduced to the edges it asks
 * about): which node each Pod is bound to, and the Secrets, ConfigMaps, PersistentVolumeClaims and
 * ServiceAccount each Pod references; which PersistentVolume each claim is bound to. Fed by the
 * server's watches of Pods and PersistentVolumeClaims; answers "does a pod on node N reach this?".
 */

type Obj = { metadata: { name?: string; namespace?: string }; spec?: unknown };

export type VertexType = 'secret' | 'configmap' | 'persistentvolumeclaim' | 'serviceaccount';

interface PodSpec {
  nodeName?: string;
  serviceAccountName?: string;
  imagePullSecrets?: { name?: string }[];
  containers?: Container[];
  initContainers?: Container[];
  ephemeralContainers?: Container[];
  volumes?: Volume[];
}
interface Container {
  env?: { valueFrom?: { secretKeyRef?: { name?: string }; configMapKeyRef?: { name?: string } } }[];
  envFrom?: { secretRef?: { name?: string }; configMapRef?: { name?: string } }[];
}
type SecretRef = { secretRef?: { name?: string } };
interface Volume {
  name?: string;
  secret?: { secretName?: string };
  configMap?: { name?: string };
  persistentVolumeClaim?: { claimName?: string };
  ephemeral?: unknown;
  projected?: { sources?: { secret?: { name?: string }; configMap?: { name?: string } }[] };
  azureFile?: { secretName?: string };
  csi?: { nodePublishSecretRef?: { name?: string } };
  cephfs?: SecretRef;
  cinder?: SecretRef;
  flexVolume?: SecretRef;
  iscsi?: SecretRef;
  rbd?: SecretRef;
  scaleIO?: SecretRef;
  storageos?: SecretRef;
}

/** The vertices a Pod points at, as `type/namespace/name`. */
export function podReferences(pod: Obj): string[] {
  const ns = pod.metadata.namespace ?? '';
  const spec = (pod.spec ?? {}) as PodSpec;
  const refs = new Set<string>();
  const add = (type: VertexType, name: string | undefined) => {
    if (name) refs.add(`${type}/${ns}/${name}`);
  };
  add('serviceaccount', spec.serviceAccountName || 'default');
  for (const s of spec.imagePullSecrets ?? []) add('secret', s.name);
  for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? []), ...(spec.ephemeralContainers ?? [])]) {
    for (const e of c.env ?? []) {
      add('secret', e.valueFrom?.secretKeyRef?.name);
      add('configmap', e.valueFrom?.configMapKeyRef?.name);
    }
    for (const e of c.envFrom ?? []) {
      add('secret', e.secretRef?.name);
      add('configmap', e.configMapRef?.name);
    }
  }
  for (const v of spec.volumes ?? []) {
    add('secret', v.secret?.secretName);
    add('configmap', v.configMap?.name);
    add('persistentvolumeclaim', v.persistentVolumeClaim?.claimName);
    if (v.ephemeral) add('persistentvolumeclaim', `${pod.metadata.name}-${v.name}`);
    for (const p of v.projected?.sources ?? []) {
      add('secret', p.secret?.name);
      add('configmap', p.configMap?.name);
    }
    add('secret', v.azureFile?.secretName);
    add('secret', v.csi?.nodePublishSecretRef?.name);
    for (const s of [v.cephfs, v.cinder, v.flexVolume, v.iscsi, v.rbd, v.scaleIO, v.storageos]) add('secret', s?.secretRef?.name);
  }
  return [...refs];
}

export class NodeGraph {
  /** Per pod: its node and what it references. */
  private readonly pods = new Map<string, { node: string; refs: string[] }>();
  /** Per referenced vertex: the nodes (with how many of their pods) reaching it. */
  private readonly reachedFrom = new Map<string, Map<string, number>>();
  /** PersistentVolume name → the claims (namespace/name) bound to it. */
  private readonly claimsOfVolume = new Map<string, Set<string>>();
  private readonly volumeOfClaim = new Map<string, string>();

  putPod(pod: Obj): void {
    this.removePod(pod);
    const node = ((pod.spec ?? {}) as PodSpec).nodeName;
    if (!node) return; // unscheduled pods reach no node
    const key = `${pod.metadata.namespace}/${pod.metadata.name}`;
    const refs = podReferences(pod);
    this.pods.set(key, { node, refs });
    for (const r of refs) {
      let nodes = this.reachedFrom.get(r);
      if (!nodes) this.reachedFrom.set(r, (nodes = new Map()));
      nodes.set(node, (nodes.get(node) ?? 0) + 1);
    }
  }

  removePod(pod: Obj): void {
    const key = `${pod.metadata.namespace}/${pod.metadata.name}`;
    const old = this.pods.get(key);
    if (!old) return;
    this.pods.delete(key);
    for (const r of old.refs) {
      const nodes = this.reachedFrom.get(r)!;
      const n = (nodes.get(old.node) ?? 1) - 1;
      if (n > 0) nodes.set(old.node, n);
      else nodes.delete(old.node);
      if (nodes.size === 0) this.reachedFrom.delete(r);
    }
  }

  putClaim(pvc: Obj): void {
    this.removeClaim(pvc);
    const volume = ((pvc.spec ?? {}) as { volumeName?: string }).volumeName;
    if (!volume) return;
    const key = `${pvc.metadata.namespace}/${pvc.metadata.name}`;
    this.volumeOfClaim.set(key, volume);
    let claims = this.claimsOfVolume.get(volume);
    if (!claims) this.claimsOfVolume.set(volume, (claims = new Set()));
    claims.add(key);
  }

  removeClaim(pvc: Obj): void {
    const key = `${pvc.metadata.namespace}/${pvc.metadata.name}`;
    const volume = this.volumeOfClaim.get(key);
    if (volume === undefined) return;
    this.volumeOfClaim.delete(key);
    const claims = this.claimsOfVolume.get(volume)!;
    claims.delete(key);
    if (claims.size === 0) this.claimsOfVolume.delete(volume);
  }

  replacePods(pods: Obj[]): void {
    this.pods.clear();
    this.reachedFrom.clear();
    for (const p of pods) this.putPod(p);
  }

  replaceClaims(claims: Obj[]): void {
    this.claimsOfVolume.clear();
    this.volumeOfClaim.clear();
    for (const c of claims) this.putClaim(c);
  }

  /** Whether a pod bound to `node` references the object (a volume: through a claim bound to it). */
  reaches(node: string, type: VertexType | 'persistentvolume', namespace: string, name: string): boolean {
    if (type === 'persistentvolume') {
      for (const claim of this.claimsOfVolume.get(name) ?? []) {
        const [ns, claimName] = claim.split('/');
        if (this.reaches(node, 'persistentvolumeclaim', ns, claimName)) return true;
      }
      return false;
    }
    return this.reachedFrom.get(`${type}/${namespace}/${name}`)?.has(node) ?? false;
  }
}
