/** The FlowSchema and PriorityLevelConfiguration tables, as Kubernetes' printers fill them. */
import type { PrinterColumn } from '../../api/resource.js';
import { typedColumns } from '../../api/strategy.js';
import { AGE_COLUMN } from '../../api/printers/columns.js';
import type { FlowSchema, PriorityLevelConfiguration } from '../../api/generated/types.js';

export const flowSchemaColumns: PrinterColumn[] = [
  ...typedColumns<FlowSchema>([
    {
      name: 'PriorityLevel',
      description: '`name` is the name of the priority level configuration being referenced Required.',
      cell: (o) => o.spec?.priorityLevelConfiguration?.name ?? '',
    },
    {
      name: 'MatchingPrecedence',
      description:
        '`matchingPrecedence` is used to choose among the FlowSchemas that match a given request. The chosen FlowSchema is among those with the numerically lowest (which we take to be logically highest) MatchingPrecedence.  Each MatchingPrecedence value must be ranged in [1,10000]. Note that if the precedence is not specified, it will be set to 1000 as default.',
      cell: (o) => o.spec?.matchingPrecedence ?? 0,
    },
    {
      name: 'DistinguisherMethod',
      description:
        '`distinguisherMethod` defines how to compute the flow distinguisher for requests that match this schema. `nil` specifies that the distinguisher is disabled and thus will always be the empty string.',
      cell: (o) => o.spec?.distinguisherMethod?.type ?? '<none>',
    },
  ]),
  AGE_COLUMN,
  ...typedColumns<FlowSchema>([
    {
      name: 'MissingPL',
      description: 'references a broken or non-existent PriorityLevelConfiguration',
      cell: (o) => (o.status?.conditions ?? []).find((c) => c.type === 'Dangling')?.status ?? '?',
    },
  ]),
];

const none = (v: number | undefined) => (v === undefined ? '<none>' : v);

export const priorityLevelColumns: PrinterColumn[] = [
  ...typedColumns<PriorityLevelConfiguration>([
    {
      name: 'Type',
      description:
        '`type` indicates whether this priority level is subject to limitation on request execution.  A value of `"Exempt"` means that requests of this priority level are not subject to a limit (and thus are never queued) and do not detract from the capacity made available to other priority levels.  A value of `"Limited"` means that (a) requests of this priority level _are_ subject to limits and (b) some of the server\'s limited capacity is made available exclusively to this priority level. Required.',
      cell: (o) => o.spec?.type ?? '',
    },
    {
      name: 'NominalConcurrencyShares',
      description:
        'nominalConcurrencyShares (NCS) contributes to the computation of the NominalConcurrencyLimit (NominalCL) of this level.',
      cell: (o) => (o.spec?.limited ? (o.spec.limited.nominalConcurrencyShares ?? 0) : '<none>'),
    },
    {
      name: 'Queues',
      description: '`queues` is the number of queues for this priority level.',
      cell: (o) => (o.spec?.limited ? none(o.spec.limited.limitResponse?.queuing?.queues) : '<none>'),
    },
    {
      name: 'HandSize',
      description: '`handSize` is a small positive number that configures the shuffle sharding of requests into queues.',
      cell: (o) => (o.spec?.limited ? none(o.spec.limited.limitResponse?.queuing?.handSize) : '<none>'),
    },
    {
      name: 'QueueLengthLimit',
      description:
        '`queueLengthLimit` is the maximum number of requests allowed to be waiting in a given queue of this priority level at a time.',
      cell: (o) => (o.spec?.limited ? none(o.spec.limited.limitResponse?.queuing?.queueLengthLimit) : '<none>'),
    },
  ]),
  AGE_COLUMN,
];
