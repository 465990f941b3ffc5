/**
 * kube-apiserver's /debug/api_priority_and_fairness/dump_{priority_levels,queues,requests}: one row
 * per level, per queue, per waiting or executing request, cells joined by ", " and aligned as Go's
 * tabwriter aligns them (minimum width 8, padding 1); `?includeRequestDetails=1` adds who and what.
 */
import type { LevelState } from './config-controller.js';
import type { Ticket } from './queue-set.js';

const PREFIX = '/debug/api_priority_and_fairness/';

/** Cells end with ","; every column but the last is padded to its widest cell + 1 (at least 8). */
function table(rows: string[][]): string {
  const widths: number[] = [];
  for (const r of rows)
    r.forEach((cell, i) => {
      if (i < r.length - 1) widths[i] = Math.max(widths[i] ?? 0, cell.length + 2, 8);
    });
  const lines = rows.map((r) => r.map((cell, i) => (i < r.length - 1 ? `${cell},`.padEnd(widths[i]) : cell)).join(''));
  return `${lines.join('\n')}\n`;
}

const byName = (levels: LevelState[]) => [...levels].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
const rfc3339 = (ms: number) => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000000Z');

export function dumpPriorityLevels(levels: LevelState[]): string {
  const rows = [
    [
      'PriorityLevelName',
      'ActiveQueues',
      'IsIdle',
      'IsQuiescing',
      'WaitingRequests',
      'ExecutingRequests',
      'DispatchedRequests',
      'RejectedRequests',
      'TimedoutRequests',
      'CancelledRequests',
    ],
  ];
  for (const l of byName(levels)) {
    const qs = l.queueSet;
    const c = qs.counters;
    const active = qs.queues.filter((q) => q.waiting.length > 0).length;
    const idle = qs.executing === 0 && qs.waiting === 0;
    rows.push([l.name, active, idle, false, qs.waiting, qs.executing, c.dispatched, c.rejected, c.timedOut, c.cancelled].map(String));
  }
  return table(rows);
}

export function dumpQueues(levels: LevelState[]): string {
  const rows = [
    [
      'PriorityLevelName',
      'Index',
      'PendingRequests',
      'ExecutingRequests',
      'SeatsInUse',
      'NextDispatchR',
      'InitialSeatsSum',
      'MaxSeatsSum',
      'TotalWorkSum',
    ],
  ];
  for (const l of byName(levels)) {
    for (const q of l.queueSet.queues) {
      const work = q.waiting.reduce((a, t) => a + t.seats * 0.003, 0);
      rows.push(
        [
          l.name,
          q.index,
          q.waiting.length,
          q.executing,
          q.seatsInUse,
          `${q.nextDispatchR.toFixed(8)}ss`,
          q.waitingSeats,
          q.waitingSeats,
          `${work.toFixed(8)}ss`,
        ].map(String),
      );
    }
  }
  return table(rows);
}

export function dumpRequests(levels: LevelState[], details: boolean): string {
  const header = [
    'PriorityLevelName',
    'FlowSchemaName',
    'QueueIndex',
    'RequestIndexInQueue',
    'FlowDistingsher',
    'ArriveTime',
    'InitialSeats',
    'FinalSeats',
    'AdditionalLatency',
    'StartTime',
  ];
  if (details) header.push('UserName', 'Verb', 'APIPath', 'Namespace', 'Name', 'APIVersion', 'Resource', 'SubResource');
  const rows = [header];
  const row = (l: LevelState, t: Ticket, queue: number, index: number) => {
    const r = [
      l.name,
      t.flowSchema,
      String(queue),
      String(index),
      t.distinguisher,
      rfc3339(t.arrivedAt),
      String(t.seats),
      '0',
      '0s',
      t.startedAt === undefined ? '0001-01-01T00:00:00Z' : rfc3339(t.startedAt),
    ];
    if (details) {
      const d = t.request;
      const gv = d ? (d.apiGroup ? `${d.apiGroup}/${d.apiVersion}` : d.apiVersion) : '';
      r.push(d?.user ?? '', d?.verb ?? '', d?.path ?? '', d?.namespace ?? '', d?.name ?? '', gv, d?.resource ?? '', d?.subresource ?? '');
    }
    rows.push(r);
  };
  for (const l of byName(levels)) {
    const qs = l.queueSet;
    for (const q of qs.queues) q.waiting.forEach((t, i) => row(l, t, q.index, i));
    for (const t of qs.running) row(l, t, t.queueIndex, -1);
  }
  return table(rows);
}

/** The dump a path asks for, or undefined for another path. */
export function dumpFor(path: string, query: URLSearchParams, levels: () => LevelState[]): string | undefined {
  if (!path.startsWith(PREFIX)) return undefined;
  switch (path.slice(PREFIX.length)) {
    case 'dump_priority_levels':
      return dumpPriorityLevels(levels());
    case 'dump_queues':
      return dumpQueues(levels());
    case 'dump_requests':
      return dumpRequests(levels(), ['1', 'true'].includes(query.get('includeRequestDetails') ?? ''));
    default:
      return undefined;
  }
}
