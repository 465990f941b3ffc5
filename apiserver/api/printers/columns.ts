/** Column building blocks shared by the kinds' Table declarations. */
import type { ApiObject } from '../object.js';
import type { PrinterColumn } from '../resource.js';
import { translateTimestampSince } from './human-duration.js';

/** NAME, the first column (added by the Table builder unless a kind declares its own `format: 'name'` column). */
export const NAME_COLUMN: PrinterColumn = {
  name: 'Name',
  format: 'name',
  priority: 0,
  cell: (obj) => obj.metadata.name ?? '',
  description:
    'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names',
};

/** The description of metadata.creationTimestamp, which Kubernetes' AGE and Created At columns carry. */
export const CREATION_TIMESTAMP_DESCRIPTION =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

/** AGE: time since metadata.creationTimestamp, as kubectl prints it. */
export const AGE_COLUMN: PrinterColumn = {
  name: 'Age',
  description: CREATION_TIMESTAMP_DESCRIPTION,
  cell: (obj, now) => translateTimestampSince(obj.metadata.creationTimestamp, now),
};

/** The columns of kinds without printers of their own (Kubernetes' default table). */
export const DEFAULT_COLUMNS: PrinterColumn[] = [
  {
    name: 'Created At',
    type: 'date',
    description: CREATION_TIMESTAMP_DESCRIPTION,
    cell: (obj) => obj.metadata.creationTimestamp ?? null,
  },
];

/** The number of keys of a map field (ConfigMap/Secret DATA). */
export function countKeys(...maps: unknown[]): number {
  return maps.reduce<number>((n, m) => n + (m && typeof m === 'object' ? Object.keys(m).length : 0), 0);
}

/** A string field or "<none>", as kubectl prints absent values. */
export function orNone(v: unknown): string {
  return v === undefined || v === null || v === '' ? '<none>' : String(v);
}

/** A label selector map as "k=v,k2=v2" (or "<none>"). */
export function formatSelector(selector: Record<string, string> | undefined): string {
  const entries = Object.entries(selector ?? {});
  return entries.length ? entries.map(([k, v]) => `${k}=${v}`).join(',') : '<none>';
}

export type { ApiObject };
