/** apps/v1: Deployment, ReplicaSet, StatefulSet, DaemonSet. */
import type { ResourceDeclaration } from '../resource.js';
import { deploymentStrategy } from '../../registry/apps/deployment/strategy.js';
import { deploymentColumns } from '../../registry/apps/deployment/columns.js';
import { replicaSetSelectableFields, replicaSetStrategy } from '../../registry/apps/replicaset/strategy.js';
import { replicaSetColumns } from '../../registry/apps/replicaset/columns.js';
import { statefulSetStrategy } from '../../registry/apps/statefulset/strategy.js';
import { statefulSetColumns } from '../../registry/apps/statefulset/columns.js';
import { daemonSetStrategy } from '../../registry/apps/daemonset/strategy.js';
import { daemonSetColumns } from '../../registry/apps/daemonset/columns.js';
import { scaleSubresource } from '../../registry/scale-subresource.js';
import {
  daemonSetStatusRules,
  deploymentStatusRules,
  replicaSetStatusRules,
  statusCountersSubresource,
  statefulSetStatusRules,
} from '../../registry/apps/status-counters.js';

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
    subresources: { status: statusCountersSubresource(deploymentStatusRules), scale: scaleSubresource },
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
    selectableFields: replicaSetSelectableFields,
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
];
