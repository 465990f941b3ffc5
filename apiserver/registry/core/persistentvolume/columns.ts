/** `kubectl get pv` columns, as Kubernetes' printers define them (1.28). */
import type { ApiObject } from '../../../api/object.js';
import type { PrinterColumn } from '../../../api/resource.js';
import { AGE_COLUMN } from '../../../api/printers/columns.js';
import { canonicalQuantityText } from '../../../api/quantity.js';

const ACCESS_MODE_ABBREVIATIONS: [string, string][] = [
  ['ReadWriteOnce', 'RWO'],
  ['ReadOnlyMany', 'ROX'],
  ['ReadWriteMany', 'RWX'],
  ['ReadWriteOncePod', 'RWOP'],
];

/** GetAccessModesAsString: `RWO,ROX,RWX,RWOP` in that order, each once. */
export function accessModesText(modes: unknown): string {
  const list = Array.isArray(modes) ? modes : [];
  return ACCESS_MODE_ABBREVIATIONS.filter(([mode]) => list.includes(mode))
    .map(([, short]) => short)
    .join(',');
}

/** The storage quantity of a resource list, canonical, or "" when absent. */
export function storageText(list: unknown): string {
  const storage = (list as Record<string, unknown> | undefined)?.storage;
  return storage === undefined ? '' : canonicalQuantityText(storage);
}

/** The phase, or Terminating once deletion started. */
export function phaseText(obj: ApiObject): string {
  return obj.metadata.deletionTimestamp ? 'Terminating' : ((obj.status as { phase?: string } | undefined)?.phase ?? '');
}

/** A spec's volumeMode, `<unset>` without one. */
export function volumeModeColumn(description: string): PrinterColumn {
  return {
    name: 'VolumeMode',
    type: 'string',
    priority: 1,
    description,
    cell: (o) => (o.spec as { volumeMode?: string } | undefined)?.volumeMode ?? '<unset>',
  };
}

type PVSpec = {
  capacity?: unknown;
  accessModes?: unknown;
  persistentVolumeReclaimPolicy?: string;
  claimRef?: { namespace?: string; name?: string };
  storageClassName?: string;
};
const spec = (o: ApiObject): PVSpec => (o.spec ?? {}) as PVSpec;

export const persistentVolumeColumns: PrinterColumn[] = [
  {
    name: 'Capacity',
    type: 'string',
    description: "capacity is the description of the persistent volume's resources and capacity.",
    cell: (o) => storageText(spec(o).capacity),
  },
  {
    name: 'Access Modes',
    type: 'string',
    description: 'accessModes contains all ways the volume can be mounted.',
    cell: (o) => accessModesText(spec(o).accessModes),
  },
  {
    name: 'Reclaim Policy',
    type: 'string',
    description: 'persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim.',
    cell: (o) => spec(o).persistentVolumeReclaimPolicy ?? '',
  },
  {
    name: 'Status',
    type: 'string',
    description: 'phase indicates if a volume is available, bound to a claim, or released by a claim.',
    cell: phaseText,
  },
  {
    name: 'Claim',
    type: 'string',
    description: 'claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim.',
    cell: (o) => {
      const ref = spec(o).claimRef;
      return ref ? `${ref.namespace ?? ''}/${ref.name ?? ''}` : '';
    },
  },
  { name: 'StorageClass', type: 'string', description: 'StorageClass of the pv', cell: (o) => spec(o).storageClassName ?? '' },
  {
    name: 'Reason',
    type: 'string',
    description:
      'reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy display in the CLI.',
    cell: (o) => (o.status as { reason?: string } | undefined)?.reason ?? '',
  },
  AGE_COLUMN,
  volumeModeColumn('volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state.'),
];
