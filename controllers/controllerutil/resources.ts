/**
 * The built-in resources the controllers read and write, in one typed table (group as the client
 * takes it, preferred version, plural), and the names the controllers use for them. A controller
 * takes its resources from here, never from another controller's folder. Resources whose group
 * follows the API domain (discovery, policy, certificates under `*.orch.io`) are built from the
 * context's domain where they are used.
 */
import type { GroupVersionResource } from '../client/api-client.js';

const core = (resource: string): GroupVersionResource => ({ group: '', version: 'v1', resource });
const apps = (resource: string): GroupVersionResource => ({ group: 'apps', version: 'v1', resource });
const batch = (resource: string): GroupVersionResource => ({ group: 'batch', version: 'v1', resource });

export const RESOURCES = {
  configmaps: core('configmaps'),
  endpoints: core('endpoints'),
  namespaces: core('namespaces'),
  nodes: core('nodes'),
  persistentvolumeclaims: core('persistentvolumeclaims'),
  persistentvolumes: core('persistentvolumes'),
  pods: core('pods'),
  replicationcontrollers: core('replicationcontrollers'),
  resourcequotas: core('resourcequotas'),
  secrets: core('secrets'),
  serviceaccounts: core('serviceaccounts'),
  services: core('services'),
  controllerrevisions: apps('controllerrevisions'),
  daemonsets: apps('daemonsets'),
  deployments: apps('deployments'),
  replicasets: apps('replicasets'),
  statefulsets: apps('statefulsets'),
  cronjobs: batch('cronjobs'),
  jobs: batch('jobs'),
} as const satisfies Record<string, GroupVersionResource>;

export const CONFIGMAPS = RESOURCES.configmaps;
export const ENDPOINTS = RESOURCES.endpoints;
export const NAMESPACES = RESOURCES.namespaces;
export const NODES = RESOURCES.nodes;
export const PVCS = RESOURCES.persistentvolumeclaims;
export const PVS = RESOURCES.persistentvolumes;
export const PODS = RESOURCES.pods;
export const REPLICATIONCONTROLLERS = RESOURCES.replicationcontrollers;
export const RESOURCEQUOTAS = RESOURCES.resourcequotas;
export const SECRETS = RESOURCES.secrets;
export const SERVICEACCOUNTS = RESOURCES.serviceaccounts;
export const SERVICES = RESOURCES.services;
export const CONTROLLERREVISIONS = RESOURCES.controllerrevisions;
export const DAEMONSETS = RESOURCES.daemonsets;
export const DEPLOYMENTS = RESOURCES.deployments;
export const REPLICASETS = RESOURCES.replicasets;
export const STATEFULSETS = RESOURCES.statefulsets;
export const CRONJOBS = RESOURCES.cronjobs;
export const JOBS = RESOURCES.jobs;
