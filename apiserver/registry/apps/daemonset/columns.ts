/** The DaemonSet table, as Kubernetes' printDaemonSet fills it. */
import type { DaemonSet } from '../../../api/generated/types.js';
import { formatLabelSelector, selectorColumn } from '../../shared/pod-spec/template-columns.js';
import { workloadColumns } from '../../shared/workload/columns.js';

type Counter = 'desiredNumberScheduled' | 'currentNumberScheduled' | 'numberReady' | 'updatedNumberScheduled' | 'numberAvailable';
const count = (field: Counter) => (o: DaemonSet) => o.status?.[field] ?? 0;

export const daemonSetColumns = workloadColumns<DaemonSet>({
  counts: [
    {
      name: 'Desired',
      type: 'integer',
      description: 'The total number of nodes that should be running the daemon pod.',
      cell: count('desiredNumberScheduled'),
    },
    {
      name: 'Current',
      type: 'integer',
      description: 'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod.',
      cell: count('currentNumberScheduled'),
    },
    {
      name: 'Ready',
      type: 'integer',
      description: 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and ready.',
      cell: count('numberReady'),
    },
    {
      name: 'Up-to-date',
      type: 'integer',
      description: 'The total number of nodes that are running updated daemon pod',
      cell: count('updatedNumberScheduled'),
    },
    {
      name: 'Available',
      type: 'integer',
      description:
        'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available.',
      cell: count('numberAvailable'),
    },
    {
      name: 'Node Selector',
      description: 'NodeSelector is a selector which must be true for the pod to fit on a node.',
      cell: (o) => formatLabelSelector({ matchLabels: o.spec?.template?.spec?.nodeSelector ?? {} }),
    },
  ],
  template: (o) => o.spec?.template,
  selector: selectorColumn<DaemonSet>((o) => o.spec?.selector, 'A label query over pods that are managed by the daemon set.'),
});
