/**
 * What a controller folder tells orch-controller-manager about its controller (kube-controller-
 * manager's ControllerDescriptor): its names, whether `*` enables it, the identity its RBAC role is
 * bound to, what it needs before the manager serves, and how it starts. Every folder exports its
 * descriptors; the manager reads them from one list (controllers/app/known-controllers.ts).
 */
import type { BuiltInSigners } from '../../apiserver/api/certificates/signers.js';
import type { ApiDomain } from '../../apiserver/api/domain.js';
import type { EvictionRates } from '../nodelifecycle/zone-eviction.js';
import type { Controller, ControllerContext } from './controller-context.js';

/** The manager's settings the controllers read (its flags, and the periods tests shorten). */
export interface ControllerConfig {
  concurrentGcSyncs: number;
  /** How often the garbage collector reads discovery again (30s). */
  gcSyncPeriodMs?: number;
  concurrentNamespaceSyncs: number;
  namespaceSyncPeriodMs: number;
  /** Kubernetes waits 5s after seeing a namespace deletion before acting on it. */
  namespaceDeletionGracePeriodMs?: number;
  /** How long a Node may stay silent before it is Unknown (40s), and how often Nodes are looked at (5s). */
  nodeMonitorGracePeriodMs?: number;
  nodeMonitorPeriodMs?: number;
  nodeEviction: EvictionRates;
  legacyTokenCleanUpPeriodMs: number;
  /** --service-account-private-key-file; '' = the token controller does not run. */
  serviceAccountKeyFile: string;
  /** --cluster-signing-*: the CA files of each configured built-in signer, and the longest lifetime. */
  csrSigning: { cas: Partial<Record<keyof BuiltInSigners, { certFile: string; keyFile: string }>>; durationMs: number };
}

/** What a descriptor's check reads: the settings, the API domain and the root CA found. */
export interface ControllerSetup {
  config: ControllerConfig;
  domain: ApiDomain;
  rootCaPem?: string;
}

export interface ControllerDescriptor {
  /** Canonical name, e.g. "namespace-controller". */
  name: string;
  /** Older names --controllers accepts too. */
  aliases: readonly string[];
  /** Enabled by `*`. */
  defaultOn: boolean;
  /**
   * The ServiceAccount (in the system namespace) the controller calls the API as, bound to the
   * ClusterRole (or namespaced Roles) `system:controller:<serviceAccount>` of the API server's
   * bootstrap policy (apiserver/authorization/rbac/bootstrap/); none: it runs as the controller
   * manager itself.
   */
  serviceAccount?: string;
  /** Throws, naming the controller and what is missing or unreadable, before the manager serves. */
  check?(setup: ControllerSetup): void;
  /**
   * The controller over its context, or undefined when the configuration leaves it off (it logs
   * why). Loads the controller's code only when it starts, so reading the list stays cheap.
   */
  start(ctx: ControllerContext, config: ControllerConfig): Promise<Controller | undefined>;
}

/** What a controller folder states of its descriptor: all but the name, and `defaultOn` only when it is false. */
export type ControllerDescriptorSpec = Omit<ControllerDescriptor, 'name' | 'defaultOn'> & { defaultOn?: boolean };

/** The descriptor of the controller named `name`: enabled by `*` unless the spec says otherwise. */
export function newControllerDescriptor(name: string, spec: ControllerDescriptorSpec): ControllerDescriptor {
  return { name, defaultOn: true, ...spec };
}

/** The check of a controller that publishes the root CA: refuses to start without one. */
export function requireRootCa(name: string): (setup: ControllerSetup) => void {
  return ({ rootCaPem }) => {
    if (!rootCaPem) throw new Error(`${name}: no root CA: pass --root-ca-file or use a kubeconfig with certificate-authority data`);
  };
}
