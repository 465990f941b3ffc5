/** `kubectl get pvc` columns, as Kubernetes' printers define them (1.28): capacity and modes once bound to a volume. */
import type { PrinterColumn } from '../../../api/resource.js';
import { typedColumns } from '../../../api/strategy.js';
import { AGE_COLUMN } from '../../../api/printers/columns.js';
import type { PersistentVolumeClaim } from '../../../api/generated/types.js';
import { accessModesText, phaseText, storageText, volumeModeColumn } from '../persistentvolume/columns.js';

const bound = (o: PersistentVolumeClaim): boolean => !!o.spec?.volumeName;

export const persistentVolumeClaimColumns: PrinterColumn[] = [
  ...typedColumns<PersistentVolumeClaim>([
    { name: 'Status', description: 'phase represents the current phase of PersistentVolumeClaim.', cell: phaseText },
    {
      name: 'Volume',
      description: 'volumeName is the binding reference to the PersistentVolume backing this claim.',
      cell: (o) => o.spec?.volumeName ?? '',
    },
    {
      name: 'Capacity',
      description: 'capacity represents the actual resources of the underlying volume.',
      cell: (o) => (bound(o) ? storageText(o.status?.capacity) : ''),
    },
    {
      name: 'Access Modes',
      description: 'accessModes contains the actual access modes the volume backing the PVC has.',
      cell: (o) => (bound(o) ? accessModesText(o.status?.accessModes) : ''),
    },
    { name: 'StorageClass', description: 'StorageClass of the pvc', cell: (o) => o.spec?.storageClassName ?? '' },
  ]),
  AGE_COLUMN,
  volumeModeColumn<PersistentVolumeClaim>('volumeMode defines what type of volume is required by the claim.'),
];
