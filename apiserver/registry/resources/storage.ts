/** `storage.k8s.io/v1` kinds, served under the API domain (storage.orch.io). */
import type { ResourceDeclaration } from '../../api/resource.js';
import { storageClassStrategy } from '../storage/storageclass/strategy.js';
import { volumeAttachmentStatusStrategy, volumeAttachmentStrategy } from '../storage/volumeattachment/strategy.js';
import { csiDriverStrategy } from '../storage/csidriver/strategy.js';
import { csiNodeStrategy } from '../storage/csinode/strategy.js';
import { csiStorageCapacityStrategy } from '../storage/csistoragecapacity/strategy.js';
import {
  csiDriverColumns,
  csiNodeColumns,
  csiStorageCapacityColumns,
  storageClassColumns,
  volumeAttachmentColumns,
} from '../storage/columns.js';

const storage = { kubernetesGroup: 'storage.k8s.io', version: 'v1', nameRule: 'dns-subdomain' } as const;

export const storageResources: ResourceDeclaration[] = [
  {
    ...storage,
    kind: 'StorageClass',
    plural: 'storageclasses',
    singular: 'storageclass',
    shortNames: ['sc'],
    namespaced: false,
    schema: 'storage.v1.StorageClass',
    returnDeletedObject: true,
    strategy: storageClassStrategy,
    columns: storageClassColumns,
  },
  {
    ...storage,
    kind: 'VolumeAttachment',
    requireResourceVersionOnUpdate: true,
    plural: 'volumeattachments',
    singular: 'volumeattachment',
    namespaced: false,
    schema: 'storage.v1.VolumeAttachment',
    returnDeletedObject: true,
    strategy: volumeAttachmentStrategy,
    subresources: { status: volumeAttachmentStatusStrategy },
    columns: volumeAttachmentColumns,
  },
  {
    ...storage,
    kind: 'CSIDriver',
    requireResourceVersionOnUpdate: true,
    plural: 'csidrivers',
    singular: 'csidriver',
    namespaced: false,
    schema: 'storage.v1.CSIDriver',
    returnDeletedObject: true,
    strategy: csiDriverStrategy,
    columns: csiDriverColumns,
  },
  {
    ...storage,
    kind: 'CSINode',
    requireResourceVersionOnUpdate: true,
    plural: 'csinodes',
    singular: 'csinode',
    namespaced: false,
    schema: 'storage.v1.CSINode',
    returnDeletedObject: true,
    strategy: csiNodeStrategy,
    columns: csiNodeColumns,
  },
  {
    ...storage,
    kind: 'CSIStorageCapacity',
    requireResourceVersionOnUpdate: true,
    plural: 'csistoragecapacities',
    singular: 'csistoragecapacity',
    namespaced: true,
    schema: 'storage.v1.CSIStorageCapacity',
    strategy: csiStorageCapacityStrategy,
    columns: csiStorageCapacityColumns,
  },
];
