/**
 * Creating and deleting a controller's Pods through the API, with the events Kubernetes' PodControl
 * records (SuccessfulCreate / FailedCreate, SuccessfulDelete / FailedDelete on the controller).
 */
import type { Pod } from '../../apiserver/api/generated/types.js';
import { isApiError } from '../../apiserver/api/status.js';
import type { ApiClient } from '../client/api-client.js';
import { hasStatusCause, NAMESPACE_TERMINATING_CAUSE } from '../client/api-errors.js';
import type { EventRecorder, ObjectReference } from '../events/event-recorder.js';
import { objectKey } from '../informers/indexer.js';
import type { Expectations } from './expectations.js';
import { PODS } from './resources.js';
import { messageOf } from '../../apiserver/api/thrown.js';

export class PodControl {
  constructor(
    private readonly client: ApiClient,
    private readonly recorder: EventRecorder,
  ) {}

  /** Creates the Pod; a namespace that is terminating is no error (nothing can be created there). */
  async create(pod: Pod, controller: ObjectReference): Promise<Pod | undefined> {
    try {
      const created = await this.client.resource(PODS, pod.metadata.namespace).create(pod);
      this.recorder.event(controller, 'Normal', 'SuccessfulCreate', 'Create', `Created pod: ${created.metadata.name}`);
      return created;
    } catch (err) {
      if (hasStatusCause(err, NAMESPACE_TERMINATING_CAUSE)) return undefined;
      this.recorder.event(controller, 'Warning', 'FailedCreate', 'Create', `Error creating: ${messageOf(err)}`);
      throw err;
    }
  }

  /**
   * Deletes the Pod (uid precondition); one already gone is no error, and false (its deletion may have
   * been observed already: a controller expecting it must not wait for it).
   */
  async delete(pod: Pod, controller: ObjectReference): Promise<boolean> {
    try {
      await this.client.resource(PODS, pod.metadata.namespace).delete(pod.metadata.name!, { preconditions: { uid: pod.metadata.uid } });
      this.recorder.event(controller, 'Normal', 'SuccessfulDelete', 'Delete', `Deleted pod: ${pod.metadata.name}`);
      return true;
    } catch (err) {
      if (isApiError(err, 'NotFound') || isApiError(err, 'Conflict')) return false;
      this.recorder.event(controller, 'Warning', 'FailedDelete', 'Delete', `Error deleting: ${messageOf(err)}`);
      throw err;
    }
  }

  /**
   * create() for a controller whose expectations (under `key`) await the Pod: a creation not made
   * (or failed) will never reach the informer, so it counts as seen at once.
   */
  async createExpected(pod: Pod, controller: ObjectReference, expectations: Expectations, key: string): Promise<void> {
    let created: Pod | undefined;
    try {
      created = await this.create(pod, controller);
    } catch (err) {
      expectations.creationObserved(key);
      throw err;
    }
    if (!created) expectations.creationObserved(key);
  }

  /**
   * delete() for a controller whose expectations (under `key`) await the Pod's deletion: a Pod
   * already gone (its deletion may have been seen before the expectation) or a failed delete counts
   * as seen at once, so the next sync is not held for it.
   */
  async deleteExpected(pod: Pod, controller: ObjectReference, expectations: Expectations, key: string): Promise<void> {
    let deleted: boolean;
    try {
      deleted = await this.delete(pod, controller);
    } catch (err) {
      expectations.deletionObserved(key, objectKey(pod));
      throw err;
    }
    if (!deleted) expectations.deletionObserved(key, objectKey(pod));
  }
}
