/**
 * The two kinds the ReplicaSet controller manages. Kubernetes runs the same controller for
 * ReplicationControllers (its replication manager wraps the ReplicaSet controller with adapters); here
 * the controller takes the kind's facts instead: where it is served, what its owner references and
 * events call it, and how its selector reads (a LabelSelector for ReplicaSets, a plain label map for
 * ReplicationControllers).
 */
import type { ApiObject } from '../../apiserver/api/object.js';
import { labelSelectorFromObject, type LabelSelector, type LabelSelectorObject } from '../../apiserver/runtime/selectors/label-selector.js';
import type { GroupVersionResource } from '../client/api-client.js';
import { REPLICASETS, REPLICATIONCONTROLLERS } from '../controllerutil/resources.js';

export interface ReplicatedKind {
  resource: GroupVersionResource;
  apiVersion: string;
  kind: string;
  /** The work queue's name (its metrics). */
  queueName: string;
  /** The event source component. */
  component: string;
  /** The log field naming an object of this kind. */
  logField: string;
  /** The object's Pod selector; throws when it is invalid. */
  selector(obj: ApiObject): LabelSelector;
}

const spec = (obj: ApiObject) => (obj.spec ?? {}) as { selector?: unknown };

export const REPLICA_SET_KIND: ReplicatedKind = {
  resource: REPLICASETS,
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  queueName: 'replicaset',
  component: 'replicaset-controller',
  logField: 'replicaset',
  selector: (rs) => labelSelectorFromObject(spec(rs).selector as LabelSelectorObject | undefined),
};

export const REPLICATION_CONTROLLER_KIND: ReplicatedKind = {
  resource: REPLICATIONCONTROLLERS,
  apiVersion: 'v1',
  kind: 'ReplicationController',
  queueName: 'replicationmanager',
  component: 'replication-controller',
  logField: 'replicationcontroller',
  selector: (rc) => labelSelectorFromObject({ matchLabels: (spec(rc).selector ?? {}) as Record<string, string> }),
};
