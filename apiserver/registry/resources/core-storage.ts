/** Core group (`/api/v1`) storage kinds: PersistentVolume and PersistentVolumeClaim. */
import type { ResourceDeclaration } from '../../api/resource.js';
import { persistentVolumeStatusStrategy, persistentVolumeStrategy } from '../core/persistentvolume/strategy.js';
import { persistentVolumeColumns } from '../core/persistentvolume/columns.js';
import { persistentVolumeClaimStatusStrategy, persistentVolumeClaimStrategy } from '../core/persistentvolumeclaim/strategy.js';
import { persistentVolumeClaimColumns } from '../core/persistentvolumeclaim/columns.js';

export const coreStorageResources: ResourceDeclaration[] = [
  {
    kubernetesGroup: '',
    version: 'v1',
    kind: 'PersistentVolume',
    plural: 'persistentvolumes',
    singular: 'persistentvolume',
    shortNames: ['pv'],
    namespaced: false,
    schema: 'core.v1.PersistentVolume',
    nameRule: 'dns-subdomain',
    returnDeletedObject: true,
    strategy: persistentVolumeStrategy,
    subresources: { status: persistentVolumeStatusStrategy },
    columns: persistentVolumeColumns,
  },
  {
    kubernetesGroup: '',
    version: 'v1',
    kind: 'PersistentVolumeClaim',
    plural: 'persistentvolumeclaims',
    singular: 'persistentvolumeclaim',
    shortNames: ['pvc'],
    namespaced: true,
    schema: 'core.v1.PersistentVolumeClaim',
    nameRule: 'dns-subdomain',
    returnDeletedObject: true,
    strategy: persistentVolumeClaimStrategy,
    subresources: { status: persistentVolumeClaimStatusStrategy },
    columns: persistentVolumeClaimColumns,
  },
];
