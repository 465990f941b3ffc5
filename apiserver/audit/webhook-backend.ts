/**
 * --audit-webhook-config-file: events POSTed as an EventList to the service a kubeconfig names, in
 * batches (Kubernetes' batch mode): a batch leaves when it holds --audit-webhook-batch-max-size
 * events or its oldest event waited --audit-webhook-batch-max-wait. A failed send is retried with
 * exponential backoff from --audit-webhook-initial-backoff, three times, then dropped and reported.
 * At most MAX_BUFFERED events wait; more are dropped and reported, so a slow webhook never grows memory.
 */
import { loadWebhookKubeconfig, postToEndpoint } from '../authorization/webhook.js';
import type { AuditBackend, AuditEvent } from './types.js';
import { messageOf } from '../api/thrown.js';

export interface WebhookBackendOptions {
  configFile: string;
  /** The EventList's apiVersion. */
  apiVersion: string;
  batchMaxSize: number;
  batchMaxWaitMs: number;
  initialBackoffMs: number;
  onError(err: Error): void;
}

/** Kubernetes' default buffer of the batch backend. */
const MAX_BUFFERED = 10_000;
const ATTEMPTS = 3;
const TIMEOUT_MS = 30_000;

export function newWebhookBackend(opts: WebhookBackendOptions): AuditBackend {
  const endpoint = loadWebhookKubeconfig(opts.configFile);
  const buffer: AuditEvent[] = [];
  let timer: NodeJS.Timeout | undefined;
  const sending = new Set<Promise<void>>();

  const send = async (items: AuditEvent[]) => {
    const body = JSON.stringify({ kind: 'EventList', apiVersion: opts.apiVersion, metadata: {}, items });
    for (let attempt = 1, backoff = opts.initialBackoffMs; ; attempt++, backoff *= 2) {
      try {
        const r = await postToEndpoint(endpoint, body, TIMEOUT_MS);
        if (r.status >= 200 && r.status < 300) return;
        throw new Error(`the audit webhook answered ${r.status}: ${r.text.slice(0, 200)}`);
      } catch (err) {
        if (attempt >= ATTEMPTS) {
          opts.onError(new Error(`dropped ${items.length} audit events: ${messageOf(err)}`));
          return;
        }
        await new Promise((r) => setTimeout(r, backoff).unref());
      }
    }
  };
  /** Sends full batches; `all`: the rest too (the max wait is over, or shutdown). */
  const flush = (all: boolean) => {
    while (buffer.length >= opts.batchMaxSize || (all && buffer.length > 0)) {
      const p = send(buffer.splice(0, opts.batchMaxSize)).finally(() => sending.delete(p));
      sending.add(p);
    }
    if (all || buffer.length === 0) {
      clearTimeout(timer);
      timer = undefined;
    }
  };
  return {
    process(events) {
      const room = MAX_BUFFERED - buffer.length;
      if (events.length > room) opts.onError(new Error(`audit webhook buffer full: dropped ${events.length - Math.max(room, 0)} events`));
      buffer.push(...events.slice(0, Math.max(room, 0)));
      flush(false);
      if (buffer.length && !timer) timer = setTimeout(() => flush(true), opts.batchMaxWaitMs);
    },
    async shutdown() {
      flush(true);
      await Promise.all(sending);
    },
  };
}

/** Every backend gets every event. */
export function unionBackend(backends: AuditBackend[]): AuditBackend {
  if (backends.length === 1) return backends[0];
  return {
    process: (events) => {
      for (const b of backends) b.process(events);
    },
    shutdown: async () => {
      await Promise.all(backends.map((b) => b.shutdown()));
    },
  };
}
