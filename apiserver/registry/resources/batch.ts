/** batch/v1: Job, CronJob. */
import type { ResourceDeclaration } from '../../api/resource.js';
import { jobSelectableFields, jobStatusRules, jobStrategy, unsupportedJobFieldLabel } from '../batch/job/strategy.js';
import { jobColumns } from '../batch/job/columns.js';
import { cronJobStrategy } from '../batch/cronjob/strategy.js';
import { cronJobColumns } from '../batch/cronjob/columns.js';
import { statusCountersSubresource } from '../shared/workload/status-counters.js';
import { statusSubresource } from '../generic/status-subresource.js';

/** Kubernetes' warning on a Job DELETE that leaves the propagation to the Job's orphaning default. */
const JOB_DELETE_WARNING =
  'child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning';

export const batchResources: ResourceDeclaration[] = [
  {
    kubernetesGroup: 'batch',
    version: 'v1',
    kind: 'Job',
    plural: 'jobs',
    singular: 'job',
    categories: ['all'],
    namespaced: true,
    schema: 'batch.v1.Job',
    nameRule: 'dns-subdomain',
    strategy: jobStrategy,
    defaultPropagationWarning: JOB_DELETE_WARNING,
    subresources: { status: statusCountersSubresource(jobStatusRules) },
    trackGeneration: true,
    columns: jobColumns,
    selectableFields: jobSelectableFields,
    unsupportedFieldLabel: unsupportedJobFieldLabel,
  },
  {
    kubernetesGroup: 'batch',
    version: 'v1',
    kind: 'CronJob',
    plural: 'cronjobs',
    singular: 'cronjob',
    shortNames: ['cj'],
    categories: ['all'],
    namespaced: true,
    schema: 'batch.v1.CronJob',
    nameRule: 'dns-subdomain',
    strategy: cronJobStrategy,
    subresources: { status: statusSubresource },
    trackGeneration: true,
    columns: cronJobColumns,
  },
];
