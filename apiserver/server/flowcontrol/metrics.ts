/**
 * The apiserver_flowcontrol_* metrics kube-apiserver 1.28 exposes for API Priority and Fairness, with
 * its names, labels and stability levels: rejections and dispatches, waiting and executing requests
 * and seats, queue waits, execution times, estimated seats, and each level's seat limits (read from
 * the configuration when scraped).
 */
import type { MetricsFactory } from '../../component-base/metrics/registry.js';
import type { ConfigController } from './config-controller.js';
import type { RejectReason } from './queue-set.js';

export interface FlowControlMetrics {
  rejected(level: string, schema: string, reason: RejectReason): void;
  dispatched(level: string, schema: string): void;
  /** +1 / −1 as a request starts or stops waiting. */
  waiting(level: string, schema: string, delta: number, seats: number): void;
  executing(level: string, schema: string, delta: number, seats: number): void;
  waited(level: string, schema: string, executed: boolean, seconds: number): void;
  executed(level: string, schema: string, seconds: number): void;
  estimatedSeats(level: string, schema: string, seats: number): void;
}

const WAIT_BUCKETS = [0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30];
const EXECUTION_BUCKETS = [0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30];

export function newFlowControlMetrics(m: MetricsFactory, controller: () => ConfigController | undefined): FlowControlMetrics {
  const pf = ['priority_level', 'flow_schema'] as const;
  const rejected = m.counter({
    name: 'apiserver_flowcontrol_rejected_requests_total',
    help: 'Number of requests rejected by API Priority and Fairness subsystem',
    labelNames: [...pf, 'reason'],
    stabilityLevel: 'BETA',
  });
  const dispatched = m.boundCounter({
    name: 'apiserver_flowcontrol_dispatched_requests_total',
    help: 'Number of requests executed by API Priority and Fairness subsystem',
    labelNames: pf,
    stabilityLevel: 'BETA',
  });
  // The gauges of one (level, schema): requests and seats waiting in queues and executing.
  const flowGauge = (name: string, help: string, stabilityLevel?: 'BETA') => m.boundGauge({ name, help, labelNames: pf, stabilityLevel });
  const inqueue = flowGauge(
    'apiserver_flowcontrol_current_inqueue_requests',
    'Number of requests currently pending in queues of the API Priority and Fairness subsystem',
    'BETA',
  );
  const inqueueSeats = flowGauge(
    'apiserver_flowcontrol_current_inqueue_seats',
    'Number of seats currently pending in queues of the API Priority and Fairness subsystem',
  );
  const executing = flowGauge(
    'apiserver_flowcontrol_current_executing_requests',
    'Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem',
    'BETA',
  );
  const executingSeats = flowGauge(
    'apiserver_flowcontrol_current_executing_seats',
    'Concurrency (number of seats) occupied by the currently executing (initial stage for a WATCH, any stage otherwise) requests in the API Priority and Fairness subsystem',
    'BETA',
  );
  const wait = m.boundHistogram({
    name: 'apiserver_flowcontrol_request_wait_duration_seconds',
    help: 'Length of time a request spent waiting in its queue',
    labelNames: [...pf, 'execute'],
    buckets: WAIT_BUCKETS,
    stabilityLevel: 'BETA',
  });
  const execution = m.boundHistogram({
    name: 'apiserver_flowcontrol_request_execution_seconds',
    help: 'Duration of initial stage (for a WATCH) or any (for a non-WATCH) stage of request execution in the API Priority and Fairness subsystem',
    labelNames: [...pf, 'type'],
    buckets: EXECUTION_BUCKETS,
  });
  const seats = m.boundHistogram({
    name: 'apiserver_flowcontrol_work_estimated_seats',
    help: 'Number of estimated seats (maximum of initial and final seats) associated with requests in API Priority and Fairness',
    labelNames: pf,
    buckets: [1, 2, 4, 10],
  });
  const perLevel = (
    name: string,
    help: string,
    stabilityLevel: 'ALPHA' | 'BETA',
    value: (l: ReturnType<ConfigController['levels']>[number]) => number,
  ) =>
    m.gauge({
      name,
      help,
      labelNames: ['priority_level'],
      stabilityLevel,
      collect() {
        this.reset();
        for (const l of controller()?.levels() ?? []) this.set({ priority_level: l.name }, value(l));
      },
    });
  perLevel(
    'apiserver_flowcontrol_nominal_limit_seats',
    'Nominal number of execution seats configured for each priority level',
    'BETA',
    (l) => l.limits.nominalCL,
  );
  perLevel(
    'apiserver_flowcontrol_lower_limit_seats',
    'Configured lower bound on number of execution seats available to each priority level',
    'ALPHA',
    (l) => l.limits.minCL,
  );
  perLevel(
    'apiserver_flowcontrol_upper_limit_seats',
    'Configured upper bound on number of execution seats available to each priority level',
    'ALPHA',
    (l) => l.limits.maxCL,
  );
  perLevel(
    'apiserver_flowcontrol_current_limit_seats',
    'current derived number of execution seats available to each priority level',
    'ALPHA',
    (l) => (l.exempt ? l.limits.nominalCL : l.queueSet.concurrencyLimit),
  );
  perLevel(
    'apiserver_flowcontrol_request_concurrency_limit',
    'Nominal number of execution seats configured for each priority level',
    'ALPHA',
    (l) => l.limits.nominalCL,
  );
  perLevel('apiserver_flowcontrol_current_r', 'R(time of last change)', 'ALPHA', (l) => l.queueSet.nextR);
  // One set of bound children per (level, schema), found by one key per call (component-base/metrics/bound.ts).
  const children = new Map<string, ReturnType<typeof bind>>();
  const bind = (priority_level: string, flow_schema: string) => {
    const labels = { priority_level, flow_schema };
    return {
      dispatched: dispatched.labels(labels),
      inqueue: inqueue.labels(labels),
      inqueueSeats: inqueueSeats.labels(labels),
      executing: executing.labels(labels),
      executingSeats: executingSeats.labels(labels),
      waitTrue: wait.labels({ ...labels, execute: 'true' }),
      waitFalse: wait.labels({ ...labels, execute: 'false' }),
      execution: execution.labels({ ...labels, type: 'regular' }),
      seats: seats.labels(labels),
    };
  };
  const of = (l: string, s: string) => {
    const key = `${l}\0${s}`;
    let c = children.get(key);
    if (!c) children.set(key, (c = bind(l, s)));
    return c;
  };
  return {
    rejected: (l, s, reason) => rejected.inc({ priority_level: l, flow_schema: s, reason }),
    dispatched: (l, s) => of(l, s).dispatched.inc(),
    waiting(l, s, delta, n) {
      const c = of(l, s);
      c.inqueue.inc(delta);
      c.inqueueSeats.inc(delta * n);
    },
    executing(l, s, delta, n) {
      const c = of(l, s);
      c.executing.inc(delta);
      c.executingSeats.inc(delta * n);
    },
    waited: (l, s, executed, seconds) => (executed ? of(l, s).waitTrue : of(l, s).waitFalse).observe(seconds),
    executed: (l, s, seconds) => of(l, s).execution.observe(seconds),
    estimatedSeats: (l, s, n) => of(l, s).seats.observe(n),
  };
}
