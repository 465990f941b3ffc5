/**
 * Events for controllers: `recorder.event(regarding, 'Normal', 'ScalingReplicaSet', 'Scaling', note)`
 * writes a core v1 Event in the object's namespace, as kube-controller-manager's controllers do
 * (client-go's record package): `source.component` and `reportingComponent` the controller's name,
 * `firstTimestamp` = `lastTimestamp` = now, `count` 1 — what `kubectl get events --sort-by` and
 * `kubectl describe` read. The EventCorrelator decides first: a source over its spam limit is
 * dropped, similar events are aggregated, and a repeat counts up the first one's `count` and
 * `lastTimestamp` (a strategic merge patch; the Event written anew when it is gone). Writes go out one
 * at a time in the background and never fail a sync; a backlog of more than 1000 drops new events, as
 * Kubernetes' broadcaster does.
 */
import type { ApiDomain } from '../../apiserver/api/domain.js';
import type { KindObject } from '../../apiserver/api/object.js';
import type { Logger } from '../../apiserver/component-base/logs/logger.js';
import type { ApiClient } from '../client/api-client.js';
import { isApiError } from '../../apiserver/api/status.js';
import { EventCorrelator, Lru, CACHE_SIZE } from './event-correlator.js';
import { messageOf } from '../../apiserver/api/thrown.js';

export interface ObjectReference {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  resourceVersion?: string;
}

export type EventType = 'Normal' | 'Warning';

export interface EventRecorder {
  /** Records that `action` on `regarding` happened for `reason`, described by `note`. */
  event(regarding: ObjectReference, type: EventType, reason: string, action: string, note: string, related?: ObjectReference): void;
}

/** The reference to an object for events (its kind and apiVersion given, as cached objects may lack them). */
export function objectReference(obj: KindObject, apiVersion: string, kind: string): ObjectReference {
  const m = obj.metadata;
  return { apiVersion, kind, namespace: m.namespace, name: m.name, uid: m.uid, resourceVersion: m.resourceVersion };
}

const MAX_BACKLOG = 1000;
const MAX_NOTE_BYTES = 1024;

/** A metav1.Time: RFC 3339 in whole seconds. */
function time(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function refKey(r: ObjectReference | undefined): string {
  return r ? [r.kind, r.namespace, r.name, r.uid, r.apiVersion].join('/') : '';
}

function truncate(note: string): string {
  const buf = Buffer.from(note, 'utf8');
  return buf.length <= MAX_NOTE_BYTES
    ? note
    : buf
        .subarray(0, MAX_NOTE_BYTES)
        .toString('utf8')
        .replace(/\uFFFD$/, '');
}

export interface EventRecorderOptions {
  client: ApiClient;
  domain: ApiDomain;
  /** reportingController, e.g. "deployment-controller". */
  controller: string;
  /** reportingInstance: this process's identity. */
  instance: string;
  logger: Logger;
  correlator?: EventCorrelator;
}

export class ApiEventRecorder implements EventRecorder {
  private readonly correlator: EventCorrelator;
  /** correlation key → the written event. */
  private readonly written = new Lru<{ namespace: string; name: string; firstTimestamp: string }>(CACHE_SIZE);
  private tail: Promise<void> = Promise.resolve();
  private backlog = 0;
  private seq = 0;

  constructor(private readonly opts: EventRecorderOptions) {
    this.correlator = opts.correlator ?? new EventCorrelator();
  }

  event(regarding: ObjectReference, type: EventType, reason: string, action: string, note: string, related?: ObjectReference): void {
    const source = `${this.opts.controller}\u0000${this.opts.instance}`;
    const c = this.correlator.correlate({
      source,
      regarding: refKey(regarding),
      related: refKey(related),
      type,
      reason,
      action,
      note,
    });
    if (c.do === 'drop') return;
    if (this.backlog >= MAX_BACKLOG) {
      this.opts.logger.warn('event dropped: too many pending', { reason, object: regarding.name });
      return;
    }
    this.backlog++;
    const now = Date.now();
    const write = async () => {
      const namespace = regarding.namespace || 'default';
      const create = async (count: number, firstTimestamp: string, again?: string) => {
        const name = again ?? `${regarding.name}.${(BigInt(now) * 1_000_000n + BigInt(this.seq++ % 1_000_000)).toString(16)}`;
        await this.events(namespace).create({
          metadata: { name, namespace },
          involvedObject: regarding,
          reason,
          message: truncate(c.note),
          source: { component: this.opts.controller },
          firstTimestamp,
          lastTimestamp: time(now),
          count,
          type,
          reportingComponent: this.opts.controller,
          reportingInstance: this.opts.instance,
          ...(related ? { related } : {}),
        });
        this.written.set(c.key, { namespace, name, firstTimestamp });
      };
      try {
        const existing = c.do === 'update' ? this.written.get(c.key) : undefined;
        if (c.do === 'update' && existing) {
          try {
            await this.events(existing.namespace).patch(
              existing.name,
              { count: c.count, lastTimestamp: time(now), message: truncate(c.note) },
              'application/strategic-merge-patch+json',
            );
          } catch (err) {
            // Gone (expired after --event-ttl): written again, keeping its count.
            if (!isApiError(err, 'NotFound')) throw err;
            await create(c.count, existing.firstTimestamp, existing.name);
          }
          return;
        }
        await create(1, time(now));
      } catch (err) {
        this.correlator.forget(c.key);
        this.written.delete(c.key);
        this.opts.logger.warn('writing an event failed', { reason, object: regarding.name, error: messageOf(err) });
      } finally {
        this.backlog--;
      }
    };
    this.tail = this.tail.then(write);
  }

  /** Resolves once every event recorded so far was written (or failed). */
  flush(): Promise<void> {
    return this.tail;
  }

  private events(namespace: string) {
    return this.opts.client.resource({ group: '', version: 'v1', resource: 'events' }, namespace);
  }
}
