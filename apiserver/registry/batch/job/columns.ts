/** The Job table, as Kubernetes 1.28's printJob fills it. */
import type { PrinterColumn } from '../../../api/resource.js';
import { typedColumns } from '../../../api/strategy.js';
import { AGE_COLUMN } from '../../../api/printers/columns.js';
import { humanDuration } from '../../../api/printers/human-duration.js';
import type { Job } from '../../../api/generated/types.js';
import { selectorColumn, templateContainerColumns } from '../../shared/pod-spec/template-columns.js';

/** COMPLETIONS: succeeded/completions, or succeeded/1 (of parallelism) for work-queue jobs. */
function completions(o: Job): string {
  const succeeded = o.status?.succeeded ?? 0;
  const { completions: wanted, parallelism = 0 } = o.spec ?? {};
  if (wanted !== undefined) return `${succeeded}/${wanted}`;
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

/** DURATION: from start to completion, or to now while running; empty before the start. */
function duration(o: Job, now: Date): string {
  const { startTime, completionTime } = o.status ?? {};
  if (!startTime) return '';
  const end = completionTime ? Date.parse(completionTime) : now.getTime();
  return humanDuration(end - Date.parse(startTime));
}

export const jobColumns: PrinterColumn[] = [
  ...typedColumns<Job>([
    { name: 'Completions', description: 'The number of pods which reached phase Succeeded.', cell: completions },
    { name: 'Duration', description: 'Time required to complete the job.', cell: duration },
  ]),
  AGE_COLUMN,
  ...templateContainerColumns<Job>((o) => o.spec?.template),
  ...typedColumns<Job>([selectorColumn<Job>((o) => o.spec?.selector, 'A label query over pods that should match the pod count.')]),
];
