/**
 * The two kinds the ReplicaSet controller manages. Kubernetes runs the same controller for
 * ReplicationControllers (its replication manager wraps the ReplicaSet controller with adapters); here
 * the controller takes the kind's facts instead: where it is served, what its owner references and
 * events call it, and how its selector reads (a LabelSelector for ReplicaSets, a plain label map for
 * ReplicationControllers).
 */
import type { ReplicaSet, ReplicationController } from '../../apiserver/api/generated/types.js';
import { labelSelectorFromObject, type LabelSelector } from '../../apiserver/runtime/selectors/label-selector.js';
import type { TypedResource } from '../client/api-client.js';
import { REPLICASETS, REPLICATIONCONTROLLERS } from '../controllerutil/resources.js';

/** An object of either kind: both have replicas, minReadySeconds, a template and the same status counters. */
export type Replicated = ReplicaSet | ReplicationController;

export interface ReplicatedKind<T extends Replicated = Replicated> {
  resource: TypedResource<T>;
  apiVersion: string;
  kind: string;
  /** The work queue's name (its metrics). */
  queueName: string;
  /** The event source component. */
  component: string;
  /** The log field naming an object of this kind. */
  logField: string;
  /** The object's Pod selector; throws when it is invalid. */
  selector(obj: T): LabelSelector;
}

export const REPLICA_SET_KIND: ReplicatedKind<ReplicaSet> = {
  resource: REPLICASETS,
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  queueName: 'replicaset',
  component: 'replicaset-controller',
  logField: 'replicaset',
  selector: (rs) => labelSelectorFromObject(rs.spec?.selector),
};

export const REPLICATION_CONTROLLER_KIND: ReplicatedKind<ReplicationController> = {
  resource: REPLICATIONCONTROLLERS,
  apiVersion: 'v1',
  kind: 'ReplicationController',
  queueName: 'replicationmanager',
  component: 'replication-controller',
  logField: 'replicationcontroller',
  selector: (rc) => labelSelectorFromObject({ matchLabels: rc.spec?.selector ?? {} }),
};
