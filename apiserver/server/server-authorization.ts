/**
 * The server's authorizer of the --authorization-mode modes, and what it decides from: RBAC from
 * memory (a policy cache the RBAC informers keep), the Node mode's graph, ABAC policies, a webhook;
 * and RBAC's escalation check, which admission runs.
 */
import { readFileSync } from 'node:fs';
import type { ApiDomain } from '../api/domain.js';
import { parsePolicyFile } from '../authorization/abac.js';
import { newAuthorizer, type BuiltAuthorizer } from '../authorization/new-authorizer.js';
import { NodeGraph } from '../authorization/node/graph.js';
import { nodeRules } from '../authorization/rbac/bootstrap/cluster-roles.js';
import { policyGroups } from '../authorization/rbac/bootstrap/groups.js';
import { EscalationCheck } from '../authorization/rbac/escalation.js';
import { PolicyCache } from '../authorization/rbac/policy-cache.js';
import { RuleResolver } from '../authorization/rbac/rule-resolver.js';
import type { ServerOptions } from './options.js';

export interface ServerAuthorization {
  authorization: BuiltAuthorizer;
  /** rbac.authorization.<domain>. */
  rbacGroup: string;
  /** The RBAC objects the RBAC informers keep (started with the stores). */
  policy: PolicyCache;
  /** The Node authorizer's graph, which its informers keep. */
  graph: NodeGraph;
  escalation: EscalationCheck;
}

export function newServerAuthorization(options: ServerOptions, domain: ApiDomain): ServerAuthorization {
  const rbacGroup = domain.group('rbac.authorization.k8s.io');
  const policy = new PolicyCache();
  const graph = new NodeGraph();
  const authorization = newAuthorizer(options.authorizationModes, {
    rbac: policy,
    rbacGroup,
    node: {
      graph,
      nodeRules: nodeRules(policyGroups(domain)),
      storageGroup: domain.group('storage.k8s.io'),
      coordinationGroup: domain.group('coordination.k8s.io'),
      nodeLeaseNamespace: domain.nodeLeaseNamespace,
    },
    abacPolicies: options.authorizationPolicyFile
      ? parsePolicyFile(readFileSync(options.authorizationPolicyFile, 'utf8'), domain, options.authorizationPolicyFile)
      : undefined,
    webhook: options.authorizationWebhookConfigFile
      ? {
          configFile: options.authorizationWebhookConfigFile,
          version: options.authorizationWebhookVersion,
          authorizedTtlMs: options.authorizationWebhookCacheAuthorizedTtlMs,
          unauthorizedTtlMs: options.authorizationWebhookCacheUnauthorizedTtlMs,
        }
      : undefined,
  });
  const escalation = new EscalationCheck(authorization.authorizer, new RuleResolver(policy, rbacGroup), rbacGroup);
  return { authorization, rbacGroup, policy, graph, escalation };
}
