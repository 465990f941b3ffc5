/**
 * Dynamic provisioning as Kubernetes' volume binder does it for external provisioners (orch has no
 * in-tree volume plugins): the claim is annotated with its StorageClass's provisioner
 * (`volume.<prefix>/storage-provisioner` and `volume.beta.<prefix>/storage-provisioner`, which
 * provisioners watch for) and an ExternalProvisioning event says it waits. A provisioner under the
 * API domain's own prefix would be an in-tree plugin: none matches, ProvisioningFailed. A class with
 * `volumeBindingMode: WaitForFirstConsumer` waits until the scheduler picks a node
 * (`volume.<prefix>/selected-node`).
 */
import type { ApiDomain } from '../../apiserver/api/domain.js';
import type { PersistentVolumeClaim, StorageClass } from '../../apiserver/api/generated/types.js';
import { type ApiClient, resourceOf, type TypedResource } from '../client/api-client.js';
import type { EventRecorder } from '../events/event-recorder.js';
import { objectReference } from '../events/event-recorder.js';
import { PVCS } from '../controllerutil/resources.js';
import { messageOf } from '../../apiserver/api/thrown.js';

export function storageClassesResource(domain: ApiDomain): TypedResource<StorageClass> {
  return resourceOf<StorageClass>(domain.group('storage.k8s.io'), 'v1', 'storageclasses');
}

export class ClaimProvisioning {
  private readonly provisionerKey: string;
  private readonly betaProvisionerKey: string;
  private readonly selectedNodeKey: string;
  private readonly labelPrefix: string;

  constructor(
    private readonly client: ApiClient,
    private readonly recorder: EventRecorder,
    private readonly domain: ApiDomain,
  ) {
    const labelPrefix = domain.labelPrefix;
    this.labelPrefix = labelPrefix;
    this.provisionerKey = `volume.${labelPrefix}/storage-provisioner`;
    this.betaProvisionerKey = `volume.beta.${labelPrefix}/storage-provisioner`;
    this.selectedNodeKey = `volume.${labelPrefix}/selected-node`;
  }

  /** IsDelayBindingMode: the claim's class binds when a Pod using it is scheduled. */
  delaysBinding(storageClass: StorageClass | undefined): boolean {
    return storageClass?.volumeBindingMode === 'WaitForFirstConsumer';
  }

  /** The node the scheduler chose for a delayed claim, if any. */
  selectedNode(pvc: PersistentVolumeClaim): string | undefined {
    return pvc.metadata.annotations?.[this.selectedNodeKey];
  }

  /** emitEventForUnboundDelayBindingClaim. */
  waitForConsumer(pvc: PersistentVolumeClaim, unscheduledPods: string[]): void {
    let reason = 'WaitForFirstConsumer';
    let message = 'waiting for first consumer to be created before binding';
    if (unscheduledPods.length) {
      reason = 'WaitForPodScheduled';
      message =
        unscheduledPods.length > 1
          ? `waiting for pods ${unscheduledPods.join(',')} to be scheduled`
          : `waiting for pod ${unscheduledPods[0]} to be scheduled`;
    }
    this.recorder.event(this.ref(pvc), 'Normal', reason, 'Bind', message);
  }

  /** provisionClaim with an external provisioner: annotate the claim and wait for its volume. */
  async provision(pvc: PersistentVolumeClaim, storageClass: StorageClass | undefined): Promise<void> {
    const className = pvc.spec?.storageClassName;
    if (!storageClass) {
      this.failed(pvc, `storageclass.${this.domain.group('storage.k8s.io')} "${className}" not found`);
      return;
    }
    const provisioner = storageClass.provisioner ?? '';
    if (provisioner.startsWith(`${this.labelPrefix}/`)) {
      this.failed(pvc, `no volume plugin matched name: ${provisioner}`);
      return;
    }
    let claim = pvc;
    if (pvc.metadata.annotations?.[this.provisionerKey] !== provisioner) {
      const next: PersistentVolumeClaim = {
        ...pvc,
        metadata: {
          ...pvc.metadata,
          annotations: { ...pvc.metadata.annotations, [this.betaProvisionerKey]: provisioner, [this.provisionerKey]: provisioner },
        },
      };
      try {
        claim = await this.client.resource(PVCS, pvc.metadata.namespace).update(next);
      } catch (err) {
        this.failed(pvc, `Error saving claim: ${messageOf(err)}`);
        throw err;
      }
    }
    this.recorder.event(
      this.ref(claim),
      'Normal',
      'ExternalProvisioning',
      'Provision',
      `Waiting for a volume to be created either by the external provisioner '${provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`,
    );
  }

  private failed(pvc: PersistentVolumeClaim, message: string): void {
    this.recorder.event(this.ref(pvc), 'Warning', 'ProvisioningFailed', 'Provision', message);
  }

  private ref(pvc: PersistentVolumeClaim) {
    return objectReference(pvc, 'v1', 'PersistentVolumeClaim');
  }
}
