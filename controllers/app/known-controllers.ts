/**
 * Every controller orch-controller-manager knows, one descriptor a line, by kube-controller-
 * manager's names; --controllers reads them in this order (controller-names.ts), the manager starts
 * them in it. A new controller is its folder (with its descriptor.ts) and one line here.
 */
import { bootstrapSignerDescriptor, tokenCleanerDescriptor } from '../bootstrap/descriptor.js';
import { clusterRoleAggregationDescriptor } from '../clusterroleaggregation/descriptor.js';
import type { ControllerDescriptor } from '../controllerutil/controller-descriptor.js';
import { cronJobDescriptor } from '../cronjob/descriptor.js';
import { csrApprovingDescriptor } from '../csrapproving/descriptor.js';
import { csrCleanerDescriptor } from '../csrcleaner/descriptor.js';
import { csrSigningDescriptor } from '../csrsigning/descriptor.js';
import { daemonSetDescriptor } from '../daemonset/descriptor.js';
import { deploymentDescriptor } from '../deployment/descriptor.js';
import { disruptionDescriptor } from '../disruption/descriptor.js';
import { endpointsDescriptor } from '../endpoints/descriptor.js';
import { endpointSliceDescriptor } from '../endpointslice/descriptor.js';
import { endpointSliceMirroringDescriptor } from '../endpointslicemirroring/descriptor.js';
import { garbageCollectorDescriptor } from '../garbagecollector/descriptor.js';
import { jobDescriptor } from '../job/descriptor.js';
import { namespaceDescriptor } from '../namespace/descriptor.js';
import { nodeLifecycleDescriptor } from '../nodelifecycle/descriptor.js';
import { podGcDescriptor } from '../podgc/descriptor.js';
import { pvcProtectionDescriptor } from '../pvcprotection/descriptor.js';
import { pvProtectionDescriptor } from '../pvprotection/descriptor.js';
import { replicaSetDescriptor, replicationControllerDescriptor } from '../replicaset/descriptor.js';
import { resourceQuotaDescriptor } from '../resourcequota/descriptor.js';
import { rootCaCertPublisherDescriptor } from '../rootcacertpublisher/descriptor.js';
import { legacyTokenCleanerDescriptor, serviceAccountDescriptor, serviceAccountTokenDescriptor } from '../serviceaccount/descriptor.js';
import { statefulSetDescriptor } from '../statefulset/descriptor.js';
import { ttlDescriptor } from '../ttl/descriptor.js';
import { ttlAfterFinishedDescriptor } from '../ttlafterfinished/descriptor.js';
import { pvBinderDescriptor } from '../volumebinder/descriptor.js';

export const KNOWN_CONTROLLERS: readonly ControllerDescriptor[] = [
  bootstrapSignerDescriptor,
  csrApprovingDescriptor,
  csrCleanerDescriptor,
  csrSigningDescriptor,
  clusterRoleAggregationDescriptor,
  cronJobDescriptor,
  daemonSetDescriptor,
  deploymentDescriptor,
  disruptionDescriptor,
  endpointsDescriptor,
  endpointSliceDescriptor,
  endpointSliceMirroringDescriptor,
  garbageCollectorDescriptor,
  jobDescriptor,
  legacyTokenCleanerDescriptor,
  namespaceDescriptor,
  nodeLifecycleDescriptor,
  pvBinderDescriptor,
  pvProtectionDescriptor,
  pvcProtectionDescriptor,
  podGcDescriptor,
  replicaSetDescriptor,
  replicationControllerDescriptor,
  resourceQuotaDescriptor,
  rootCaCertPublisherDescriptor,
  serviceAccountDescriptor,
  serviceAccountTokenDescriptor,
  statefulSetDescriptor,
  tokenCleanerDescriptor,
  ttlAfterFinishedDescriptor,
  ttlDescriptor,
];
