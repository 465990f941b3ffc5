/**
 * A ControllerContext for unit tests of controllers' sync logic: informers that never start, whose
 * caches (the listers) the test fills by hand, a client that records every request and answers it
 * without a server (client-go's fake clientset), and a recorder that collects events.
 */
import { randomUUID } from 'node:crypto';
import { newApiDomain } from '../../apiserver/api/domain.js';
import type { ApiObject, KindObject } from '../../apiserver/api/object.js';
import { asApiObject, deepCopy } from '../../apiserver/api/object.js';
import { newLogger } from '../../apiserver/component-base/logs/logger.js';
import { type ApiClient, ResourceClient, type GroupVersionResource } from '../../controllers/client/api-client.js';
import type { ControllerContext } from '../../controllers/controllerutil/controller-context.js';
import type { EventRecorder, ObjectReference } from '../../controllers/events/event-recorder.js';
import { InformerFactory } from '../../controllers/informers/informer-factory.js';
import { WorkQueue } from '../../controllers/workqueue/work-queue.js';

export interface RecordedRequest {
  method: string;
  path: string;
  body?: any;
  contentType?: string;
}

export interface RecordedEvent {
  regarding: ObjectReference;
  type: string;
  reason: string;
  action: string;
  note: string;
}

/** Answers a request; return undefined for the default answer. */
export type Responder = (req: RecordedRequest) => unknown;

export class FakeClient {
  readonly requests: RecordedRequest[] = [];
  private readonly responders: Responder[] = [];
  private seq = 0;

  /** Adds a responder consulted before the defaults (throw an ApiError to fail the request). */
  on(responder: Responder): void {
    this.responders.push(responder);
  }

  resource(gvr: GroupVersionResource, namespace = ''): ResourceClient {
    return new ResourceClient(this as unknown as ApiClient, gvr, namespace);
  }

  async request<T>(method: string, path: string, opts: { body?: unknown; contentType?: string } = {}): Promise<T> {
    const req: RecordedRequest = { method, path, body: deepCopy(opts.body), contentType: opts.contentType };
    this.requests.push(req);
    for (const r of this.responders) {
      const answer = r(req);
      if (answer !== undefined) return answer as T;
    }
    if (method === 'POST') {
      const obj = deepCopy(opts.body) as ApiObject;
      obj.metadata.name ??= `${obj.metadata.generateName ?? ''}${(this.seq++).toString(36).padStart(5, '0')}`;
      obj.metadata.uid = randomUUID();
      obj.metadata.resourceVersion = '1';
      obj.metadata.creationTimestamp = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
      return obj as T;
    }
    if (method === 'PUT') return deepCopy(opts.body) as T;
    // A list (by selector or page): what the fake stores, nothing (the caches are the test's).
    if (method === 'GET' && /[?&](labelSelector|limit)=/.test(path)) return { metadata: {}, items: [] } as T;
    return { kind: 'Status', status: 'Success' } as T;
  }

  /** The requests with this method whose path contains `part`. */
  made(method: string, part = ''): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && r.path.includes(part));
  }

  close(): void {}
}

export interface FakeContext extends ControllerContext {
  fake: FakeClient;
  events: RecordedEvent[];
  /** Puts objects in the cache of a resource's informer, telling its event handlers (as a watch would). */
  cache(gvr: GroupVersionResource, ...objs: (ApiObject | KindObject)[]): void;
}

export function newFakeContext(domain = 'orch.io'): FakeContext {
  const fake = new FakeClient();
  const client = fake as unknown as ApiClient;
  const informers = new InformerFactory(client);
  const events: RecordedEvent[] = [];
  const recorder: EventRecorder = {
    event: (regarding, type, reason, action, note) => events.push({ regarding, type, reason, action, note }),
  };
  return {
    fake,
    events,
    client,
    informers,
    domain: newApiDomain(domain),
    logger: newLogger({ logLevel: 'error' }),
    discover: () => Promise.reject(new Error('no discovery in unit tests')),
    newQueue: <T>() => new WorkQueue<T>(),
    recorder: () => recorder,
    cache(gvr, ...objs) {
      for (const o of objs) informers.forResource(gvr).add(asApiObject(o));
    },
  };
}
