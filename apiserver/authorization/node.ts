/**
 * --authorization-mode=Node (Kubernetes' node authorizer): a kubelet, `system:node:<name>` in
 * `system:nodes`, may read the Secrets, ConfigMaps, PersistentVolumeClaims and PersistentVolumes
 * that Pods bound to it reference, create tokens for their ServiceAccounts, keep its own Lease in
 * the node-lease namespace and its own CSINode, and otherwise what the `system:node` rules allow —
 * with writes to Nodes limited to its own (what NodeRestriction admission adds in Kubernetes).
 * Anyone else: no opinion.
 */
import type { Attributes, Authorizer, RuleResolver } from './interfaces.js';
import type { NodeGraph, VertexType } from './node/graph.js';
import type { PolicyRule } from './rbac/types.js';
import { ruleAllows } from './rbac/rule-matching.js';

export const NODES_GROUP = 'system:nodes';
export const NODE_USER_PREFIX = 'system:node:';

export interface NodeAuthorizerConfig {
  graph: NodeGraph;
  /** The system:node rules (authorization/rbac/bootstrap nodeRules), groups mapped by the domain. */
  nodeRules: PolicyRule[];
  /** The served core, storage and coordination groups ('' , storage.<domain>, coordination.<domain>). */
  storageGroup: string;
  coordinationGroup: string;
  /** The namespace of node Leases (<prefix>-node-lease). */
  nodeLeaseNamespace: string;
}

const noOpinion = (reason: string) => ({ decision: 'NoOpinion' as const, reason });
const allow = { decision: 'Allow' as const, reason: '' };

/** The node a user is, or undefined when not a node; '' for a node user without a name. */
export function nodeIdentity(user: { name: string; groups: string[] }): string | undefined {
  if (!user.groups.includes(NODES_GROUP) || !user.name.startsWith(NODE_USER_PREFIX)) return undefined;
  return user.name.slice(NODE_USER_PREFIX.length);
}

export function newNodeAuthorizer(config: NodeAuthorizerConfig): Authorizer & RuleResolver {
  const { graph } = config;
  const related = (node: string, type: VertexType | 'persistentvolume', a: Attributes) => {
    if (!a.name) return noOpinion('No Object name found');
    return graph.reaches(node, type, a.namespace, a.name)
      ? allow
      : noOpinion(`no relationship found between node '${node}' and this object`);
  };
  const readNamespaced = (node: string, type: VertexType, a: Attributes) => {
    if (!['get', 'list', 'watch'].includes(a.verb)) return noOpinion('can only read resources of this type');
    if (a.subresource) return noOpinion('cannot read subresource');
    if (!a.namespace) return noOpinion('can only read namespaced object of this type');
    return related(node, type, a);
  };
  const getOnly = (node: string, type: 'persistentvolumeclaim' | 'persistentvolume', a: Attributes) => {
    if (a.verb !== 'get') return noOpinion('can only get individual resources of this type');
    if (a.subresource) return noOpinion('cannot get subresource');
    return related(node, type, a);
  };
  const ownObject = (node: string, a: Attributes, what: string) => {
    if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb))
      return noOpinion(`can only get, create, update, patch, or delete a ${what}`);
    if (a.subresource) return noOpinion(`cannot authorize ${what} subresources`);
    if (a.verb !== 'create' && a.name !== node) return noOpinion(`can only access ${what} with the same name as the requesting node`);
    return allow;
  };

  return {
    async authorize(a) {
      const node = nodeIdentity(a.user);
      if (node === undefined) return noOpinion('');
      if (!node) return noOpinion(`unknown node for user "${a.user.name}"`);
      if (a.resourceRequest) {
        const core = a.apiGroup === '';
        if (core && a.resource === 'secrets') return readNamespaced(node, 'secret', a);
        if (core && a.resource === 'configmaps') return readNamespaced(node, 'configmap', a);
        if (core && a.resource === 'persistentvolumeclaims') {
          if (a.subresource === 'status') {
            if (a.verb !== 'update' && a.verb !== 'patch') return noOpinion('can only get/update/patch this type');
            return related(node, 'persistentvolumeclaim', a);
          }
          return getOnly(node, 'persistentvolumeclaim', a);
        }
        if (core && a.resource === 'persistentvolumes') return getOnly(node, 'persistentvolume', a);
        if (core && a.resource === 'serviceaccounts') {
          if (a.verb !== 'create' || !a.name) return noOpinion('can only create tokens for individual service accounts');
          if (a.subresource !== 'token') return noOpinion('can only create token subresource of serviceaccount');
          return related(node, 'serviceaccount', a);
        }
        if (a.apiGroup === config.coordinationGroup && a.resource === 'leases') {
          if (a.namespace !== config.nodeLeaseNamespace)
            return noOpinion(`can only access leases in the "${config.nodeLeaseNamespace}" system namespace`);
          return ownObject(node, a, 'node lease');
        }
        if (a.apiGroup === config.storageGroup && a.resource === 'csinodes') return ownObject(node, a, 'CSINode');
        // Writes to Nodes: only its own (NodeRestriction's rule, kept here).
        if (core && a.resource === 'nodes' && ['update', 'patch', 'delete'].includes(a.verb) && a.name !== node) {
          return noOpinion('can only modify the node object of the requesting node');
        }
      }
      return config.nodeRules.some((r) => ruleAllows(a, r)) ? allow : noOpinion('');
    },
    rulesFor(user) {
      // Like Kubernetes' node authorizer: what the graph grants a node cannot be listed.
      if (nodeIdentity(user) === undefined) return { resourceRules: [], nonResourceRules: [], incomplete: false, errors: [] };
      return {
        resourceRules: [],
        nonResourceRules: [],
        incomplete: true,
        errors: ['node authorizer does not support user rule resolution'],
      };
    },
  };
}
