/** The Pod table (what `kubectl get pods` prints), as Kubernetes' printPod computes it. */
import type { PrinterColumn } from '../../../api/resource.js';
import { typedColumns } from '../../../api/strategy.js';
import { AGE_COLUMN, orNone } from '../../../api/printers/columns.js';
import { translateTimestampSince } from '../../../api/printers/human-duration.js';
import type { ContainerStatus, Pod, PodStatus } from '../../../api/generated/types.js';

const hasCondition = (s: PodStatus, type: string): boolean => (s.conditions ?? []).some((c) => c.type === type && c.status === 'True');

/** The latest time a container last terminated (for "N (5m ago)"). */
function latest(current: string | undefined, c: ContainerStatus): string | undefined {
  const finished = c.lastState?.terminated?.finishedAt;
  return finished && (!current || Date.parse(finished) > Date.parse(current)) ? finished : current;
}

/** The READY, STATUS and RESTARTS cells of printPod. */
function podSummary(pod: Pod, now: Date): { ready: string; reason: string; restarts: string } {
  const s = pod.status ?? {};
  const sp = pod.spec;
  const total = (sp?.containers ?? []).length;
  let readyCount = 0;
  let restarts = 0;
  let lastRestart: string | undefined;
  let reason = s.reason || s.phase || '';
  if ((s.conditions ?? []).some((c) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated')) reason = 'SchedulingGated';
  let initializing = false;
  const inits = s.initContainerStatuses ?? [];
  for (let i = 0; i < inits.length; i++) {
    const c = inits[i];
    restarts += c.restartCount ?? 0;
    lastRestart = latest(lastRestart, c);
    const terminated = c.state?.terminated;
    if (terminated && (terminated.exitCode ?? 0) === 0) continue;
    if (terminated) {
      if (terminated.reason) reason = `Init:${terminated.reason}`;
      else reason = terminated.signal ? `Init:Signal:${terminated.signal}` : `Init:ExitCode:${terminated.exitCode ?? 0}`;
    } else if (c.state?.waiting?.reason && c.state.waiting.reason !== 'PodInitializing') {
      reason = `Init:${c.state.waiting.reason}`;
    } else reason = `Init:${i}/${(sp?.initContainers ?? []).length}`;
    initializing = true;
    break;
  }
  if (!initializing || hasCondition(s, 'Initialized')) {
    restarts = 0;
    lastRestart = undefined;
    let hasRunning = false;
    const statuses = s.containerStatuses ?? [];
    for (let i = statuses.length - 1; i >= 0; i--) {
      const c = statuses[i];
      restarts += c.restartCount ?? 0;
      lastRestart = latest(lastRestart, c);
      const terminated = c.state?.terminated;
      if (c.state?.waiting?.reason) reason = c.state.waiting.reason;
      else if (terminated?.reason) reason = terminated.reason;
      else if (terminated) reason = terminated.signal ? `Signal:${terminated.signal}` : `ExitCode:${terminated.exitCode ?? 0}`;
      else if (c.ready && c.state?.running) {
        hasRunning = true;
        readyCount++;
      }
    }
    if (reason === 'Completed' && hasRunning) reason = hasCondition(s, 'Ready') ? 'Running' : 'NotReady';
  }
  if (pod.metadata.deletionTimestamp && s.reason === 'NodeLost') reason = 'Unknown';
  else if (pod.metadata.deletionTimestamp && s.phase !== 'Succeeded' && s.phase !== 'Failed') reason = 'Terminating';
  const restartText = restarts !== 0 && lastRestart ? `${restarts} (${translateTimestampSince(lastRestart, now)} ago)` : String(restarts);
  return { ready: `${readyCount}/${total}`, reason, restarts: restartText };
}

function readinessGates(pod: Pod): string {
  const gates = pod.spec?.readinessGates ?? [];
  if (gates.length === 0) return '<none>';
  const conditions = pod.status?.conditions ?? [];
  const trueCount = gates.filter((g) => conditions.find((c) => c.type === g.conditionType)?.status === 'True').length;
  return `${trueCount}/${gates.length}`;
}

export const podColumns: PrinterColumn[] = [
  ...typedColumns<Pod>([
    {
      name: 'Ready',
      description: 'The aggregate readiness state of this pod for accepting traffic.',
      cell: (o, now) => podSummary(o, now).ready,
    },
    {
      name: 'Status',
      description: 'The aggregate status of the containers in this pod.',
      cell: (o, now) => podSummary(o, now).reason,
    },
    {
      name: 'Restarts',
      description:
        'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.',
      cell: (o, now) => podSummary(o, now).restarts,
    },
  ]),
  AGE_COLUMN,
  ...typedColumns<Pod>([
    {
      name: 'IP',
      priority: 1,
      description: 'podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.',
      cell: (o) => orNone(o.status?.podIPs?.[0]?.ip),
    },
    {
      name: 'Node',
      priority: 1,
      description: 'NodeName is a request to schedule this pod onto a specific node.',
      cell: (o) => orNone(o.spec?.nodeName),
    },
    {
      name: 'Nominated Node',
      priority: 1,
      description:
        'nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods.',
      cell: (o) => orNone(o.status?.nominatedNodeName),
    },
    {
      name: 'Readiness Gates',
      priority: 1,
      description: 'If specified, all readiness gates will be evaluated for pod readiness.',
      cell: readinessGates,
    },
  ]),
];
