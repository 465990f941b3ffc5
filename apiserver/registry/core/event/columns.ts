/** The Event table, as kubectl prints `kubectl get events` (Kubernetes' event printer). */
import type { ApiObject } from '../../../api/object.js';
import type { PrinterColumn } from '../../../api/resource.js';
import { NAME_COLUMN } from '../../../api/printers/columns.js';
import { translateTimestampSince } from '../../../api/printers/human-duration.js';

interface EventView {
  involvedObject?: { kind?: string; name?: string; fieldPath?: string };
  source?: { component?: string; host?: string };
  reportingComponent?: string;
  reportingInstance?: string;
  firstTimestamp?: string;
  lastTimestamp?: string;
  eventTime?: string;
  count?: number;
  series?: { count?: number; lastObservedTime?: string };
  type?: string;
  reason?: string;
  message?: string;
}

const ev = (o: ApiObject) => o as ApiObject & EventView;

function firstSeen(o: ApiObject, now: Date): string {
  const e = ev(o);
  return translateTimestampSince(e.firstTimestamp ?? e.eventTime, now);
}

function lastSeen(o: ApiObject, now: Date): string {
  const e = ev(o);
  if (e.series) return translateTimestampSince(e.series.lastObservedTime, now);
  return e.lastTimestamp ? translateTimestampSince(e.lastTimestamp, now) : firstSeen(o, now);
}

function source(o: ApiObject): string {
  const e = ev(o);
  const component = e.source?.component || e.reportingComponent || '';
  const host = e.source?.host || e.reportingInstance || '';
  return host ? `${component}, ${host}` : component;
}

export const eventColumns: PrinterColumn[] = [
  { name: 'Last Seen', type: 'string', cell: lastSeen },
  { name: 'Type', type: 'string', cell: (o) => ev(o).type ?? '' },
  { name: 'Reason', type: 'string', cell: (o) => ev(o).reason ?? '' },
  {
    name: 'Object',
    type: 'string',
    cell: (o) => {
      const io = ev(o).involvedObject ?? {};
      const kind = (io.kind ?? '').toLowerCase();
      return io.name ? `${kind}/${io.name}` : kind;
    },
  },
  { name: 'Subobject', type: 'string', priority: 1, cell: (o) => ev(o).involvedObject?.fieldPath ?? '' },
  { name: 'Source', type: 'string', priority: 1, cell: source },
  { name: 'Message', type: 'string', cell: (o) => (ev(o).message ?? '').trim() },
  { name: 'First Seen', type: 'string', priority: 1, cell: firstSeen },
  { name: 'Count', type: 'string', priority: 1, cell: (o) => ev(o).series?.count ?? (ev(o).count || 1) },
  { ...NAME_COLUMN, priority: 1 },
];
