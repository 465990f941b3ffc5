/**
 * The built-in signers' names under the API domain: Kubernetes' `kubernetes.io/kube-apiserver-client`,
 * `…-client-kubelet`, `kubelet-serving` and `legacy-unknown` with `--api-domain=k8s.io`; under orch.io
 * the same signers named for orch (`orch.io/orch-apiserver-client`, `orch.io/orch-apiserver-client-orchlet`,
 * `orch.io/orchlet-serving`, `orch.io/legacy-unknown`). Every other place takes the names from here.
 */
import type { ApiDomain } from '../domain.js';

export interface BuiltInSigners {
  /** Client certificates the API server accepts, any subject. */
  apiServerClient: string;
  /** Node client certificates (CN system:node:<name>, O system:nodes). */
  apiServerClientNode: string;
  /** Node serving certificates. */
  nodeServing: string;
  /** Kept from v1beta1; cannot be requested through v1. */
  legacyUnknown: string;
}

export function builtInSigners(domain: ApiDomain): BuiltInSigners {
  const kube = domain.domain === 'k8s.io';
  const apiserver = kube ? 'kube-apiserver' : `${domain.systemNamespace.replace(/-system$/, '')}-apiserver`;
  const node = kube ? 'kubelet' : `${domain.systemNamespace.replace(/-system$/, '')}let`;
  const p = domain.labelPrefix;
  return {
    apiServerClient: `${p}/${apiserver}-client`,
    apiServerClientNode: `${p}/${apiserver}-client-${node}`,
    nodeServing: `${p}/${node}-serving`,
    legacyUnknown: `${p}/legacy-unknown`,
  };
}

/** The user name prefix and group of nodes (the same under every domain). */
export const NODE_USER_PREFIX = 'system:node:';
export const NODES_GROUP = 'system:nodes';
