/** `kubectl get pv` columns, as Kubernetes' printers define them (1.28). */
import type { PrinterColumn } from '../../../api/resource.js';
import { typedColumns } from '../../../api/strategy.js';
import { AGE_COLUMN } from '../../../api/printers/columns.js';
import { canonicalQuantityText } from '../../../api/quantity.js';
import type { ObjectMeta, PersistentVolume } from '../../../api/generated/types.js';

const ACCESS_MODE_ABBREVIATIONS: [string, string][] = [
  ['ReadWriteOnce', 'RWO'],
  ['ReadOnlyMany', 'ROX'],
  ['ReadWriteMany', 'RWX'],
  ['ReadWriteOncePod', 'RWOP'],
];

/** GetAccessModesAsString: `RWO,ROX,RWX,RWOP` in that order, each once. */
export function accessModesText(modes: string[] | undefined): string {
  const list = modes ?? [];
  return ACCESS_MODE_ABBREVIATIONS.filter(([mode]) => list.includes(mode))
    .map(([, short]) => short)
    .join(',');
}

/** The storage quantity of a resource list, canonical, or "" when absent. */
export function storageText(list: Record<string, string> | undefined): string {
  const storage = list?.storage;
  return storage === undefined ? '' : canonicalQuantityText(storage);
}

/** The phase, or Terminating once deletion started. */
export function phaseText(obj: { metadata: ObjectMeta; status?: { phase?: string } }): string {
  return obj.metadata.deletionTimestamp ? 'Terminating' : (obj.status?.phase ?? '');
}

/** A spec's volumeMode, `<unset>` without one. */
export function volumeModeColumn<T extends { metadata: object; spec?: { volumeMode?: string } }>(description: string): PrinterColumn {
  const [column] = typedColumns<T>([{ name: 'VolumeMode', priority: 1, description, cell: (o) => o.spec?.volumeMode ?? '<unset>' }]);
  return column!;
}

export const persistentVolumeColumns: PrinterColumn[] = [
  ...typedColumns<PersistentVolume>([
    {
      name: 'Capacity',
      description: "capacity is the description of the persistent volume's resources and capacity.",
      cell: (o) => storageText(o.spec?.capacity),
    },
    {
      name: 'Access Modes',
      description: 'accessModes contains all ways the volume can be mounted.',
      cell: (o) => accessModesText(o.spec?.accessModes),
    },
    {
      name: 'Reclaim Policy',
      description: 'persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim.',
      cell: (o) => o.spec?.persistentVolumeReclaimPolicy ?? '',
    },
    {
      name: 'Status',
      description: 'phase indicates if a volume is available, bound to a claim, or released by a claim.',
      cell: phaseText,
    },
    {
      name: 'Claim',
      description: 'claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim.',
      cell: (o) => {
        const ref = o.spec?.claimRef;
        return ref ? `${ref.namespace ?? ''}/${ref.name ?? ''}` : '';
      },
    },
    { name: 'StorageClass', description: 'StorageClass of the pv', cell: (o) => o.spec?.storageClassName ?? '' },
    {
      name: 'Reason',
      description:
        'reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy display in the CLI.',
      cell: (o) => o.status?.reason ?? '',
    },
  ]),
  AGE_COLUMN,
  volumeModeColumn<PersistentVolume>(
    'volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state.',
  ),
];
