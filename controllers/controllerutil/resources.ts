/**
 * The built-in resources the controllers read and write, in one typed table (group as the client
 * takes it, preferred version, plural), and the names the controllers use for them. Each entry is
 * typed by its generated kind, so its client and informer hand out that kind
 * (`ctx.informers.forResource(PODS)` is an `Informer<Pod>`). A controller takes its resources from
 * here, never from another controller's folder. Resources whose group follows the API domain
 * (discovery, certificates under `*.orch.io`) are built from the context's domain where they are used.
 */
import type {
  ConfigMap,
  ControllerRevision,
  CronJob,
  DaemonSet,
  Deployment,
  Endpoints,
  Job,
  Namespace,
  Node,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  PodDisruptionBudget,
  ReplicaSet,
  ReplicationController,
  ResourceQuota,
  Secret,
  Service,
  ServiceAccount,
  StatefulSet,
} from '../../apiserver/api/generated/types.js';
import type { KindObject } from '../../apiserver/api/object.js';
import { type GroupVersionResource, type TypedResource, resourceOf } from '../client/api-client.js';

const core = <T extends KindObject>(resource: string): TypedResource<T> => resourceOf<T>('', 'v1', resource);
const apps = <T extends KindObject>(resource: string): TypedResource<T> => resourceOf<T>('apps', 'v1', resource);
const batch = <T extends KindObject>(resource: string): TypedResource<T> => resourceOf<T>('batch', 'v1', resource);
const policy = <T extends KindObject>(resource: string): TypedResource<T> => resourceOf<T>('policy', 'v1', resource);

export const RESOURCES = {
  configmaps: core<ConfigMap>('configmaps'),
  endpoints: core<Endpoints>('endpoints'),
  namespaces: core<Namespace>('namespaces'),
  nodes: core<Node>('nodes'),
  persistentvolumeclaims: core<PersistentVolumeClaim>('persistentvolumeclaims'),
  persistentvolumes: core<PersistentVolume>('persistentvolumes'),
  pods: core<Pod>('pods'),
  replicationcontrollers: core<ReplicationController>('replicationcontrollers'),
  resourcequotas: core<ResourceQuota>('resourcequotas'),
  secrets: core<Secret>('secrets'),
  serviceaccounts: core<ServiceAccount>('serviceaccounts'),
  services: core<Service>('services'),
  controllerrevisions: apps<ControllerRevision>('controllerrevisions'),
  daemonsets: apps<DaemonSet>('daemonsets'),
  deployments: apps<Deployment>('deployments'),
  replicasets: apps<ReplicaSet>('replicasets'),
  statefulsets: apps<StatefulSet>('statefulsets'),
  cronjobs: batch<CronJob>('cronjobs'),
  jobs: batch<Job>('jobs'),
  poddisruptionbudgets: policy<PodDisruptionBudget>('poddisruptionbudgets'),
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
export const PODDISRUPTIONBUDGETS = RESOURCES.poddisruptionbudgets;
