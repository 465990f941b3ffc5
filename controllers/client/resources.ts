/**
 * The built-in resources controllers read and write, each typed by its generated kind, so their
 * clients and informers hand out `Pod`, `Secret`, … (ctx.informers.forResource(PODS) is an
 * Informer<Pod>). These groups keep their Kubernetes names under every API domain.
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
import { resourceOf } from './api-client.js';

export const CONFIGMAPS = resourceOf<ConfigMap>('', 'v1', 'configmaps');
export const ENDPOINTS = resourceOf<Endpoints>('', 'v1', 'endpoints');
export const NAMESPACES = resourceOf<Namespace>('', 'v1', 'namespaces');
export const NODES = resourceOf<Node>('', 'v1', 'nodes');
export const PERSISTENT_VOLUMES = resourceOf<PersistentVolume>('', 'v1', 'persistentvolumes');
export const PERSISTENT_VOLUME_CLAIMS = resourceOf<PersistentVolumeClaim>('', 'v1', 'persistentvolumeclaims');
export const PODS = resourceOf<Pod>('', 'v1', 'pods');
export const REPLICATION_CONTROLLERS = resourceOf<ReplicationController>('', 'v1', 'replicationcontrollers');
export const RESOURCE_QUOTAS = resourceOf<ResourceQuota>('', 'v1', 'resourcequotas');
export const SECRETS = resourceOf<Secret>('', 'v1', 'secrets');
export const SERVICES = resourceOf<Service>('', 'v1', 'services');
export const SERVICE_ACCOUNTS = resourceOf<ServiceAccount>('', 'v1', 'serviceaccounts');

export const CONTROLLER_REVISIONS = resourceOf<ControllerRevision>('apps', 'v1', 'controllerrevisions');
export const DAEMON_SETS = resourceOf<DaemonSet>('apps', 'v1', 'daemonsets');
export const DEPLOYMENTS = resourceOf<Deployment>('apps', 'v1', 'deployments');
export const REPLICA_SETS = resourceOf<ReplicaSet>('apps', 'v1', 'replicasets');
export const STATEFUL_SETS = resourceOf<StatefulSet>('apps', 'v1', 'statefulsets');

export const CRON_JOBS = resourceOf<CronJob>('batch', 'v1', 'cronjobs');
export const JOBS = resourceOf<Job>('batch', 'v1', 'jobs');

export const POD_DISRUPTION_BUDGETS = resourceOf<PodDisruptionBudget>('policy', 'v1', 'poddisruptionbudgets');
