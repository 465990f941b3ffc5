/** `kubectl get` columns of the storage.k8s.io kinds, as Kubernetes' printers define them (1.28). */
import type { PrinterColumn } from '../../api/resource.js';
import { typedColumns } from '../../api/strategy.js';
import { AGE_COLUMN, NAME_COLUMN } from '../../api/printers/columns.js';
import { canonicalQuantityText } from '../../api/quantity.js';
import type { CSIDriver, CSINode, CSIStorageCapacity, StorageClass, VolumeAttachment } from '../../api/generated/types.js';

/** The default-class annotation, beta or GA, under any domain (`storageclass.kubernetes.io/is-default-class`). */
const DEFAULT_CLASS_ANNOTATION = /^storageclass(\.beta)?\.[^/]+\/is-default-class$/;

export const storageClassColumns: PrinterColumn[] = [
  ...typedColumns<StorageClass>([
    {
      ...NAME_COLUMN,
      cell: (o) => {
        const isDefault = Object.entries(o.metadata.annotations ?? {}).some(([k, v]) => DEFAULT_CLASS_ANNOTATION.test(k) && v === 'true');
        return `${o.metadata.name ?? ''}${isDefault ? ' (default)' : ''}`;
      },
    },
    {
      name: 'Provisioner',
      description: 'provisioner indicates the type of the provisioner.',
      cell: (o) => o.provisioner ?? '',
    },
    {
      name: 'ReclaimPolicy',
      description: 'reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage class.',
      cell: (o) => o.reclaimPolicy ?? 'Delete',
    },
    {
      name: 'VolumeBindingMode',
      description: 'volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.',
      cell: (o) => o.volumeBindingMode ?? 'Immediate',
    },
    {
      name: 'AllowVolumeExpansion',
      description: 'allowVolumeExpansion shows whether the storage class allow volume expand.',
      cell: (o) => o.allowVolumeExpansion ?? false,
    },
  ]),
  AGE_COLUMN,
];

export const volumeAttachmentColumns: PrinterColumn[] = [
  NAME_COLUMN,
  ...typedColumns<VolumeAttachment>([
    {
      name: 'Attacher',
      format: 'name',
      description: 'attacher indicates the name of the volume driver that MUST handle this request.',
      cell: (o) => o.spec?.attacher ?? '',
    },
    {
      name: 'PV',
      description: 'persistentVolumeName represents the name of the persistent volume to attach.',
      cell: (o) => o.spec?.source?.persistentVolumeName ?? '',
    },
    {
      name: 'Node',
      description: 'nodeName represents the node that the volume should be attached to.',
      cell: (o) => o.spec?.nodeName ?? '',
    },
    {
      name: 'Attached',
      type: 'boolean',
      description: 'attached indicates the volume is successfully attached.',
      cell: (o) => o.status?.attached ?? false,
    },
  ]),
  AGE_COLUMN,
];

export const csiDriverColumns: PrinterColumn[] = [
  ...typedColumns<CSIDriver>([
    {
      name: 'AttachRequired',
      type: 'boolean',
      description: 'attachRequired indicates this CSI volume driver requires an attach operation.',
      cell: (o) => o.spec?.attachRequired ?? true,
    },
    {
      name: 'PodInfoOnMount',
      type: 'boolean',
      description: 'podInfoOnMount indicates this CSI volume driver requires additional pod information during mount operations.',
      cell: (o) => o.spec?.podInfoOnMount ?? false,
    },
    {
      name: 'StorageCapacity',
      type: 'boolean',
      description: 'storageCapacity indicates that the CSI volume driver wants pod scheduling to consider the storage capacity.',
      cell: (o) => o.spec?.storageCapacity ?? false,
    },
    {
      name: 'TokenRequests',
      description:
        "tokenRequests indicates the CSI driver needs pods' service account tokens it is mounting volume for to do necessary authentication.",
      cell: (o) => (o.spec?.tokenRequests ?? []).map((t) => t.audience ?? '').join(',') || '<unset>',
    },
    {
      name: 'RequiresRepublish',
      type: 'boolean',
      description: 'requiresRepublish indicates the CSI driver wants `NodePublishVolume` being periodically called.',
      cell: (o) => o.spec?.requiresRepublish ?? false,
    },
    {
      name: 'Modes',
      description: 'volumeLifecycleModes defines what kind of volumes this CSI volume driver supports.',
      cell: (o) => (o.spec?.volumeLifecycleModes ?? []).join(',') || '<none>',
    },
  ]),
  AGE_COLUMN,
];

export const csiNodeColumns: PrinterColumn[] = [
  ...typedColumns<CSINode>([
    {
      name: 'Drivers',
      type: 'integer',
      description: 'Drivers indicates the number of CSI drivers registered on the node',
      cell: (o) => (o.spec?.drivers ?? []).length,
    },
  ]),
  AGE_COLUMN,
];

export const csiStorageCapacityColumns: PrinterColumn[] = [
  ...typedColumns<CSIStorageCapacity>([
    {
      name: 'StorageClassName',
      description: 'storageClassName represents the name of the StorageClass that the reported capacity applies to.',
      cell: (o) => o.storageClassName ?? '',
    },
    {
      name: 'Capacity',
      description:
        'capacity is the value reported by the CSI driver in its GetCapacityResponse for a GetCapacityRequest with topology and parameters that match the previous fields.',
      cell: (o) => (o.capacity === undefined ? '<unset>' : canonicalQuantityText(o.capacity)),
    },
  ]),
];
