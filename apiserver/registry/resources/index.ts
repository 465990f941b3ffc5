/**
 * The resource table's declarations: every served kind, one file per API group (the core group split
 * by area). A new kind is a declaration in its group's file (and, when it has rules, a strategy under
 * registry/<group>/<resource>/).
 */
import type { KindDeclaration } from '../generic/kind-declaration.js';
import { coreResources } from './core.js';
import { corePodResources } from './core-pods.js';
import { coreServiceResources } from './core-services.js';
import { coreStorageResources } from './core-storage.js';
import { coreClusterResources } from './core-cluster.js';
import { appsResources } from './apps.js';
import { batchResources } from './batch.js';
import { policyResources } from './policy.js';
import { discoveryResources } from './discovery.js';
import { networkingResources } from './networking.js';
import { storageResources } from './storage.js';
import { schedulingResources } from './scheduling.js';
import { nodeResources } from './node.js';
import { coordinationResources } from './coordination.js';
import { rbacResources } from './rbac.js';
import { admissionregistrationResources } from './admissionregistration.js';
import { certificatesResources } from './certificates.js';
import { eventsResources } from './events.js';
import { authenticationResources } from './authentication.js';
import { authorizationResources } from './authorization.js';
import { flowcontrolResources } from './flowcontrol.js';
import { autoscalingResources } from './autoscaling.js';
import { apiextensionsResources } from './apiextensions.js';
import { apiregistrationResources } from './apiregistration.js';
import { historyResources } from './history.js';
import { coreControllerResources } from './core-controllers.js';

export const allResources: readonly KindDeclaration[] = [
  ...coreResources,
  ...corePodResources,
  ...coreServiceResources,
  ...coreStorageResources,
  ...coreClusterResources,
  ...coreControllerResources,
  ...appsResources,
  ...autoscalingResources,
  ...batchResources,
  ...policyResources,
  ...discoveryResources,
  ...networkingResources,
  ...storageResources,
  ...schedulingResources,
  ...nodeResources,
  ...coordinationResources,
  ...authorizationResources,
  ...rbacResources,
  ...admissionregistrationResources,
  ...certificatesResources,
  ...eventsResources,
  ...authenticationResources,
  ...flowcontrolResources,
  ...apiextensionsResources,
  ...apiregistrationResources,
  ...historyResources,
];
