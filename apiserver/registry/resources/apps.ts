/** apps/v1: Deployment, ReplicaSet, StatefulSet, DaemonSet, ControllerRevision. */
import type { ResourceDeclaration } from '../../api/resource.js';
import { deploymentStrategy } from '../apps/deployment/strategy.js';
import { deploymentColumns } from '../apps/deployment/columns.js';
import { replicaSetStrategy } from '../apps/replicaset/strategy.js';
import { replicaSetColumns } from '../apps/replicaset/columns.js';
import { statefulSetStrategy } from '../apps/statefulset/strategy.js';
import { statefulSetColumns } from '../apps/statefulset/columns.js';
import { daemonSetStrategy } from '../apps/daemonset/strategy.js';
import { daemonSetColumns } from '../apps/daemonset/columns.js';
import { scaleSubresource } from '../generic/scale-subresource.js';
import { controllerRevisionStrategy } from '../apps/controllerrevision/strategy.js';
import { controllerRevisionColumns } from '../apps/controllerrevision/columns.js';
import {
  daemonSetStatusRules,
  DEPLOYMENT_STATUS_METADATA,
  deploymentStatusRules,
  replicaSetStatusRules,
  statusCountersSubresource,
  statefulSetStatusRules,
} from '../shared/workload/status-counters.js';

/** What every apps/v1 workload declares alike. */
const apps: Pick<ResourceDeclaration, 'kubernetesGroup' | 'version' | 'namespaced' | 'trackGeneration'> = {
  kubernetesGroup: 'apps',
  version: 'v1',
  namespaced: true,
  trackGeneration: true,
};

export const appsResources: ResourceDeclaration[] = [
  {
    ...apps,
    kind: 'Deployment',
    plural: 'deployments',
    categories: ['all'],
    singular: 'deployment',
    shortNames: ['deploy'],
    schema: 'apps.v1.Deployment',
    nameRule: 'dns-subdomain',
    strategy: deploymentStrategy,
    subresources: { status: statusCountersSubresource(deploymentStatusRules, DEPLOYMENT_STATUS_METADATA), scale: scaleSubresource },
    columns: deploymentColumns,
  },
  {
    ...apps,
    kind: 'ReplicaSet',
    plural: 'replicasets',
    categories: ['all'],
    singular: 'replicaset',
    shortNames: ['rs'],
    schema: 'apps.v1.ReplicaSet',
    nameRule: 'dns-subdomain',
    strategy: replicaSetStrategy,
    subresources: { status: statusCountersSubresource(replicaSetStatusRules), scale: scaleSubresource },
    columns: replicaSetColumns,
  },
  {
    ...apps,
    kind: 'StatefulSet',
    plural: 'statefulsets',
    categories: ['all'],
    singular: 'statefulset',
    shortNames: ['sts'],
    schema: 'apps.v1.StatefulSet',
    nameRule: 'dns-label',
    strategy: statefulSetStrategy,
    subresources: { status: statusCountersSubresource(statefulSetStatusRules), scale: scaleSubresource },
    columns: statefulSetColumns,
  },
  {
    ...apps,
    kind: 'DaemonSet',
    plural: 'daemonsets',
    categories: ['all'],
    singular: 'daemonset',
    shortNames: ['ds'],
    schema: 'apps.v1.DaemonSet',
    nameRule: 'dns-subdomain',
    strategy: daemonSetStrategy,
    subresources: { status: statusCountersSubresource(daemonSetStatusRules) },
    columns: daemonSetColumns,
  },
  {
    kubernetesGroup: 'apps',
    version: 'v1',
    kind: 'ControllerRevision',
    plural: 'controllerrevisions',
    singular: 'controllerrevision',
    namespaced: true,
    schema: 'apps.v1.ControllerRevision',
    nameRule: 'dns-subdomain',
    strategy: controllerRevisionStrategy,
    columns: controllerRevisionColumns,
  },
];
