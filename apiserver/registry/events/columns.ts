/** The events.k8s.io/v1 Event table: Kubernetes prints both Event APIs from the core form, so the same columns. */
import type { PrinterColumn } from '../../api/resource.js';
import { eventColumns } from '../shared/event/columns.js';
import { eventsV1ToCore } from './conversion.js';

export const eventsV1Columns: PrinterColumn[] = eventColumns.map((c) => ({ ...c, cell: (obj, now) => c.cell(eventsV1ToCore(obj), now) }));
