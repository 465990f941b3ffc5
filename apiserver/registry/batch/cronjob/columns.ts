/** The CronJob table, as Kubernetes 1.28's printCronJob fills it. */
import type { PrinterColumn } from '../../../api/resource.js';
import { typedColumns } from '../../../api/strategy.js';
import { AGE_COLUMN } from '../../../api/printers/columns.js';
import { translateTimestampSince } from '../../../api/printers/human-duration.js';
import type { CronJob } from '../../../api/generated/types.js';
import { selectorColumn, templateContainerColumns } from '../../shared/pod-spec/template-columns.js';

/** printBoolPtr: "True", "False" or "<unset>". */
function boolText(value: boolean | undefined): string {
  if (value === undefined) return '<unset>';
  return value ? 'True' : 'False';
}

export const cronJobColumns: PrinterColumn[] = [
  ...typedColumns<CronJob>([
    {
      name: 'Schedule',
      description: 'The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.',
      cell: (o) => o.spec?.schedule ?? '',
    },
    {
      name: 'Suspend',
      type: 'boolean',
      description: 'This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.',
      cell: (o) => boolText(o.spec?.suspend),
    },
    {
      name: 'Active',
      type: 'integer',
      description: 'A list of pointers to currently running jobs.',
      cell: (o) => (o.status?.active ?? []).length,
    },
    {
      name: 'Last Schedule',
      description: 'Information when was the last time the job was successfully scheduled.',
      cell: (o, now) => (o.status?.lastScheduleTime ? translateTimestampSince(o.status.lastScheduleTime, now) : '<none>'),
    },
  ]),
  AGE_COLUMN,
  ...templateContainerColumns<CronJob>((o) => o.spec?.jobTemplate?.spec?.template),
  ...typedColumns<CronJob>([
    selectorColumn<CronJob>((o) => o.spec?.jobTemplate?.spec?.selector, 'A label query over pods that should match the pod count.'),
  ]),
];
