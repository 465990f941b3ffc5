/** The CronJob table, as Kubernetes 1.28's printCronJob fills it. */
import type { ApiObject } from '../../../api/object.js';
import type { PrinterColumn } from '../../../api/resource.js';
import { AGE_COLUMN } from '../../../api/printers/columns.js';
import { translateTimestampSince } from '../../../api/printers/human-duration.js';
import { selectorColumn, templateContainerColumns } from '../../core/pod-spec/template-columns.js';
import type { CronJobSpec } from './strategy.js';

interface CronJobStatus {
  active?: unknown[];
  lastScheduleTime?: string;
}

const spec = (o: ApiObject): CronJobSpec => (o.spec ?? {}) as CronJobSpec;
const status = (o: ApiObject): CronJobStatus => (o.status ?? {}) as CronJobStatus;

/** printBoolPtr: "True", "False" or "<unset>". */
function boolText(value: boolean | undefined): string {
  if (value === undefined) return '<unset>';
  return value ? 'True' : 'False';
}

export const cronJobColumns: PrinterColumn[] = [
  {
    name: 'Schedule',
    type: 'string',
    description: 'The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.',
    cell: (o) => spec(o).schedule ?? '',
  },
  {
    name: 'Suspend',
    type: 'boolean',
    description: 'This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.',
    cell: (o) => boolText(spec(o).suspend),
  },
  {
    name: 'Active',
    type: 'integer',
    description: 'A list of pointers to currently running jobs.',
    cell: (o) => (status(o).active ?? []).length,
  },
  {
    name: 'Last Schedule',
    type: 'string',
    description: 'Information when was the last time the job was successfully scheduled.',
    cell: (o, now) => (status(o).lastScheduleTime ? translateTimestampSince(status(o).lastScheduleTime, now) : '<none>'),
  },
  AGE_COLUMN,
  ...templateContainerColumns((o) => spec(o).jobTemplate?.spec?.template),
  selectorColumn((o) => spec(o).jobTemplate?.spec?.selector, 'A label query over pods that should match the pod count.'),
];
