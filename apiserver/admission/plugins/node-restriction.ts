/**
 * NodeRestriction (Kubernetes 1.28's): a node — `system:node:<name>` in `system:nodes` — may only
 * create mirror pods bound to itself (one controller owner reference to its own Node, with its uid;
 * no service account, Secrets, ConfigMaps or claims), delete and evict the pods bound to it, update
 * their status (not their labels or resource claim statuses), update the status of claims (capacity
 * and conditions only), write its own Node (no configSource, no taint changes, no labels under the
 * restricted namespaces), its own Lease in the node-lease namespace and its own CSINode, and request
 * tokens only bound to a pod of its own. Everyone else is not its business.
 */
import type { ApiObject } from '../../api/object.js';
import { deepCopy, isPlainObject, jsonEqual } from '../../api/object.js';
import * as status from '../../api/status.js';
import { nodeIdentity } from '../../authorization/node.js';
import { podReferences } from '../../authorization/node/graph.js';
import { admissionForbidden } from '../errors.js';
import type { AdmissionAttributes, MutatingPlugin, PluginFactory } from '../interfaces.js';
import type { Pod } from '../pods.js';
import { isResource, kubeResourceOf, NODES, PERSISTENT_VOLUME_CLAIMS, PODS, SERVICE_ACCOUNTS, writtenObject } from '../resources.js';

const LEASES = { group: 'coordination.k8s.io', resource: 'leases' };
const CSI_NODES = { group: 'storage.k8s.io', resource: 'csinodes' };
const POD_OBJECTS = kubeResourceOf<Pod>(PODS);

type Check = (node: string, a: AdmissionAttributes) => Promise<void> | void;

/** An object's spec when it is a JSON object: old objects and subresource bodies are read field by field. */
function specOf(o: ApiObject | undefined): Record<string, unknown> | undefined {
  const spec = o?.spec;
  return isPlainObject(spec) ? spec : undefined;
}

function labelNamespace(key: string): string {
  const slash = key.indexOf('/');
  return slash < 0 ? '' : key.slice(0, slash);
}

/** The keys whose values differ between the two label sets (added, removed or changed). */
function modifiedLabels(a: Record<string, string> = {}, b: Record<string, string> = {}): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((k) => a[k] !== b[k]).sort();
}

export const newNodeRestriction: PluginFactory = ({ domain, reader }): MutatingPlugin => {
  const p = domain.labelPrefix;
  const within = (ns: string, parent: string) => ns === parent || ns.endsWith(`.${parent}`);
  // kubeletapis.IsKubeletLabel: the labels and namespaces a kubelet may set on its Node.
  const kubeletLabels = new Set(
    ['hostname', 'os', 'arch']
      .map((l) => `${p}/${l}`)
      .concat([
        `topology.${p}/zone`,
        `topology.${p}/region`,
        `failure-domain.beta.${p}/zone`,
        `failure-domain.beta.${p}/region`,
        `beta.${p}/instance-type`,
        `node.${p}/instance-type`,
        `beta.${p}/os`,
        `beta.${p}/arch`,
      ]),
  );
  const kubeletNamespaces = [`kubelet.${p}`, `node.${p}`];
  const isKubeletLabel = (key: string) => kubeletLabels.has(key) || kubeletNamespaces.some((ns) => within(labelNamespace(key), ns));
  const isKubernetesLabel = (key: string) => [p, domain.domain].some((ns) => within(labelNamespace(key), ns));
  const forbiddenLabels = (keys: string[]) =>
    keys.filter((k) => within(labelNamespace(k), `node-restriction.${p}`) || (isKubernetesLabel(k) && !isKubeletLabel(k)));
  const mirrorAnnotation = `${p}/config.mirror`;
  const nodeLeaseNamespace = domain.nodeLeaseNamespace;

  const existingPod = async (a: AdmissionAttributes, name: string): Promise<ApiObject> => {
    const pod = await reader.get(PODS, a.namespace, name);
    if (!pod) throw status.notFound({ group: '', resource: 'pods' }, name);
    return pod;
  };

  const admitPodCreate: Check = async (node, a) => {
    const refuse = (why: string) => admissionForbidden(a, why);
    const pod = writtenObject(a, POD_OBJECTS);
    if (!pod) throw refuse('unexpected type <nil>');
    if (pod.metadata.annotations?.[mirrorAnnotation] === undefined) {
      throw refuse(`pod does not have "${mirrorAnnotation}" annotation, node "${node}" can only create mirror pods`);
    }
    if (pod.spec?.nodeName !== node) throw refuse(`node "${node}" can only create pods with spec.nodeName set to itself`);
    const owners = pod.metadata.ownerReferences ?? [];
    if (owners.length > 1) throw refuse(`node "${node}" can only create pods with a single owner reference set to itself`);
    const owner = owners[0];
    if (owner?.apiVersion !== 'v1' || owner.kind !== 'Node' || owner.name !== node) {
      throw refuse(`node "${node}" can only create pods with an owner reference set to itself`);
    }
    if (!owner.controller) throw refuse(`node "${node}" can only create pods with a controller owner reference set to itself`);
    if (owner.blockOwnerDeletion) throw refuse(`node "${node}" must not set blockOwnerDeletion on an owner reference`);
    const self = await reader.get(NODES, '', node);
    if (!self) throw status.notFound({ group: '', resource: 'nodes' }, node);
    if (owner.uid !== self.metadata.uid) {
      throw refuse(`node ${node} UID mismatch: expected ${self.metadata.uid ?? ''} got ${owner.uid ?? ''}`);
    }
    if (pod.spec.serviceAccountName) throw refuse(`node "${node}" can not create pods that reference a service account`);
    const refs = podReferences(pod);
    for (const [type, what] of [
      ['secret', 'secrets'],
      ['configmap', 'configmaps'],
    ]) {
      if (refs.some((r) => r.startsWith(`${type}/`))) throw refuse(`node "${node}" can not create pods that reference ${what}`);
    }
    if ((pod.spec.volumes ?? []).some((v) => v.persistentVolumeClaim)) {
      throw refuse(`node "${node}" can not create pods that reference persistentvolumeclaims`);
    }
  };

  const admitPod: Check = async (node, a) => {
    if (a.operation === 'CREATE') return admitPodCreate(node, a);
    if (a.operation === 'DELETE') {
      const pod = a.oldObject ?? (await existingPod(a, a.name));
      if (specOf(pod)?.nodeName !== node)
        throw admissionForbidden(a, `node "${node}" can only delete pods with spec.nodeName set to itself`);
      return;
    }
    throw admissionForbidden(a, `unexpected operation "${a.operation}", node "${node}" can only create and delete mirror pods`);
  };

  const admitPodStatus: Check = (node, a) => {
    if (a.operation !== 'UPDATE') throw admissionForbidden(a, `unexpected operation "${a.operation}"`);
    const old = a.oldObject;
    const pod = a.object;
    if (specOf(old)?.nodeName !== node) {
      throw admissionForbidden(a, `node "${node}" can only update pod status for pods with spec.nodeName set to itself`);
    }
    if (modifiedLabels(pod?.metadata.labels, old?.metadata.labels).length) {
      throw admissionForbidden(a, `node "${node}" cannot update labels through pod status`);
    }
    const claims = (x: ApiObject | undefined) => {
      const list: unknown[] =
        isPlainObject(x?.status) && Array.isArray(x.status.resourceClaimStatuses) ? x.status.resourceClaimStatuses : [];
      return list.map((c) => (isPlainObject(c) ? [c.name ?? '', c.resourceClaimName ?? null] : ['', null]));
    };
    if (!jsonEqual(claims(old), claims(pod))) throw admissionForbidden(a, `node "${node}" cannot update resource claim statues`);
  };

  const admitPodEviction: Check = async (node, a) => {
    if (a.operation !== 'CREATE') throw admissionForbidden(a, `unexpected operation ${a.operation}`);
    const name = a.name || a.object?.metadata.name;
    if (!name) throw admissionForbidden(a, 'could not determine pod from request data');
    const pod = await existingPod(a, name);
    if (specOf(pod)?.nodeName !== node) throw admissionForbidden(a, `node ${node} can only evict pods with spec.nodeName set to itself`);
  };

  const admitPvcStatus: Check = (node, a) => {
    if (a.operation !== 'UPDATE') throw admissionForbidden(a, `unexpected operation "${a.operation}"`);
    const strip = (o: ApiObject) => {
      const c = deepCopy(o);
      delete c.metadata.resourceVersion;
      delete c.metadata.managedFields;
      if (isPlainObject(c.status)) {
        delete c.status.capacity;
        delete c.status.conditions;
        if (Object.keys(c.status).length === 0) delete c.status;
      }
      return c;
    };
    if (!jsonEqual(strip(a.oldObject!), strip(a.object!))) {
      throw admissionForbidden(a, `node "${node}" is not allowed to update fields other than status.capacity and status.conditions`);
    }
  };

  const admitNode: Check = (node, a) => {
    if (a.name !== node) throw admissionForbidden(a, `node "${node}" is not allowed to modify node "${a.name}"`);
    const obj = a.object;
    const old = a.oldObject;
    if (a.operation === 'CREATE' && obj) {
      if (specOf(obj)?.configSource)
        throw admissionForbidden(a, `node "${node}" is not allowed to create pods with a non-nil configSource`);
      const forbidden = forbiddenLabels(modifiedLabels(obj.metadata.labels, undefined));
      if (forbidden.length)
        throw admissionForbidden(a, `node "${node}" is not allowed to set the following labels: ${forbidden.join(', ')}`);
    }
    if (a.operation === 'UPDATE' && obj && old) {
      const spec = specOf(obj);
      if (spec?.configSource && !jsonEqual(spec.configSource, specOf(old)?.configSource)) {
        throw admissionForbidden(a, `node "${node}" is not allowed to update configSource to a new non-nil configSource`);
      }
      if (!jsonEqual(spec?.taints ?? [], specOf(old)?.taints ?? []))
        throw admissionForbidden(a, `node "${node}" is not allowed to modify taints`);
      const forbidden = forbiddenLabels(modifiedLabels(obj.metadata.labels, old.metadata.labels));
      if (forbidden.length) throw admissionForbidden(a, `is not allowed to modify labels: ${forbidden.join(', ')}`);
    }
  };

  const admitTokenRequest: Check = async (node, a) => {
    if (a.operation !== 'CREATE' || a.subresource !== 'token') return;
    const ref = specOf(a.object)?.boundObjectRef;
    if (!isPlainObject(ref) || ref.apiVersion !== 'v1' || ref.kind !== 'Pod' || typeof ref.name !== 'string' || !ref.name) {
      throw admissionForbidden(a, 'node requested token not bound to a pod');
    }
    if (typeof ref.uid !== 'string' || !ref.uid) throw admissionForbidden(a, 'node requested token with a pod binding without a uid');
    const pod = await existingPod(a, ref.name);
    if (ref.uid !== pod.metadata.uid) {
      throw admissionForbidden(
        a,
        `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`,
      );
    }
    if (specOf(pod)?.nodeName !== node) throw admissionForbidden(a, 'node requested token bound to a pod scheduled on a different node');
  };

  /** Leases and CSINodes: only the one named after the node (a Lease only in the node-lease namespace). */
  const ownNamed =
    (what: string, namespace?: string): Check =>
    (node, a) => {
      if (namespace !== undefined && a.namespace !== namespace) {
        throw admissionForbidden(a, `can only access leases in the "${namespace}" system namespace`);
      }
      const name = a.operation === 'CREATE' ? a.object?.metadata.name : a.name;
      if (name !== node) throw admissionForbidden(a, `can only access ${what} with the same name as the requesting node`);
    };
  const admitLease = ownNamed('node lease', nodeLeaseNamespace);
  const admitCsiNode = ownNamed('CSINode');

  const checkOf = (a: AdmissionAttributes): Check | undefined => {
    if (isResource(a.resource, PODS)) {
      const bySubresource: Record<string, Check> = { '': admitPod, status: admitPodStatus, eviction: admitPodEviction };
      return (
        bySubresource[a.subresource] ??
        ((_, at) => {
          throw admissionForbidden(at, `unexpected pod subresource "${at.subresource}", only 'status' and 'eviction' are allowed`);
        })
      );
    }
    if (isResource(a.resource, NODES)) return admitNode;
    if (isResource(a.resource, PERSISTENT_VOLUME_CLAIMS)) {
      return a.subresource === 'status'
        ? admitPvcStatus
        : (_, at) => {
            throw admissionForbidden(at, 'may only update PVC status');
          };
    }
    if (isResource(a.resource, SERVICE_ACCOUNTS)) return admitTokenRequest;
    if (isResource(a.resource, LEASES)) return admitLease;
    if (isResource(a.resource, CSI_NODES)) return admitCsiNode;
    return undefined;
  };

  return {
    name: 'NodeRestriction',
    handles: (op) => op === 'CREATE' || op === 'UPDATE' || op === 'DELETE',
    async admit(a) {
      const node = nodeIdentity(a.user);
      if (node === undefined) return;
      if (!node) throw admissionForbidden(a, `could not determine node from user "${a.user.name}"`);
      await checkOf(a)?.(node, a);
    },
  };
};
