/** The Job table, as Kubernetes 1.28's printJob fills it. */
import type { ApiObject } from '../../../api/object.js';
import type { PrinterColumn } from '../../../api/resource.js';
import { AGE_COLUMN } from '../../../api/printers/columns.js';
import { humanDuration } from '../../../api/printers/human-duration.js';
import { selectorColumn, templateContainerColumns } from '../../core/pod-spec/template-columns.js';
import type { JobSpec } from './job-spec.js';

interface JobStatus {
  succeeded?: number;
  startTime?: string;
  completionTime?: string;
}

const spec = (o: ApiObject): JobSpec => (o.spec ?? {}) as JobSpec;
const status = (o: ApiObject): JobStatus => (o.status ?? {}) as JobStatus;

/** COMPLETIONS: succeeded/completions, or succeeded/1 (of parallelism) for work-queue jobs. */
function completions(o: ApiObject): string {
  const succeeded = status(o).succeeded ?? 0;
  const { completions: wanted, parallelism = 0 } = spec(o);
  if (wanted !== undefined) return `${succeeded}/${wanted}`;
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

/** DURATION: from start to completion, or to now while running; empty before the start. */
function duration(o: ApiObject, now: Date): string {
  const { startTime, completionTime } = status(o);
  if (!startTime) return '';
  const end = completionTime ? Date.parse(completionTime) : now.getTime();
  return humanDuration(end - Date.parse(startTime));
}

export const jobColumns: PrinterColumn[] = [
  { name: 'Completions', type: 'string', description: 'The number of pods which reached phase Succeeded.', cell: completions },
  { name: 'Duration', type: 'string', description: 'Time required to complete the job.', cell: duration },
  AGE_COLUMN,
  ...templateContainerColumns((o) => spec(o).template),
  selectorColumn((o) => spec(o).selector, 'A label query over pods that should match the pod count.'),
];
