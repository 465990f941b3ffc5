/** The Event table, as kubectl prints `kubectl get events` (Kubernetes' event printer). */
import type { PrinterColumn } from '../../../api/resource.js';
import { typedColumns } from '../../../api/strategy.js';
import { NAME_COLUMN } from '../../../api/printers/columns.js';
import { translateTimestampSince } from '../../../api/printers/human-duration.js';
import type { CoreV1Event } from '../../../api/generated/types.js';

function firstSeen(e: CoreV1Event, now: Date): string {
  return translateTimestampSince(e.firstTimestamp ?? e.eventTime, now);
}

function lastSeen(e: CoreV1Event, now: Date): string {
  if (e.series) return translateTimestampSince(e.series.lastObservedTime, now);
  return e.lastTimestamp ? translateTimestampSince(e.lastTimestamp, now) : firstSeen(e, now);
}

function source(e: CoreV1Event): string {
  const component = e.source?.component || e.reportingComponent || '';
  const host = e.source?.host || e.reportingInstance || '';
  return host ? `${component}, ${host}` : component;
}

export const eventColumns: PrinterColumn[] = [
  ...typedColumns<CoreV1Event>([
    { name: 'Last Seen', cell: lastSeen },
    { name: 'Type', cell: (o) => o.type ?? '' },
    { name: 'Reason', cell: (o) => o.reason ?? '' },
    {
      name: 'Object',
      cell: (o) => {
        const io = o.involvedObject ?? {};
        const kind = (io.kind ?? '').toLowerCase();
        return io.name ? `${kind}/${io.name}` : kind;
      },
    },
    { name: 'Subobject', priority: 1, cell: (o) => o.involvedObject?.fieldPath ?? '' },
    { name: 'Source', priority: 1, cell: source },
    { name: 'Message', cell: (o) => (o.message ?? '').trim() },
    { name: 'First Seen', priority: 1, cell: firstSeen },
    { name: 'Count', priority: 1, cell: (o) => o.series?.count ?? (o.count || 1) },
  ]),
  { ...NAME_COLUMN, priority: 1 },
];
