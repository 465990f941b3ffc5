/**
 * A dynamic REST client: JSON calls on any group/version/resource (found through discovery), with
 * list paging, subresources, patches, DeleteOptions and watch streams. Failures are ApiErrors carrying
 * the server's Status.
 *
 *   const client = ApiClient.fromKubeconfig('admin.kubeconfig');
 *   const cms = client.resource({ group: '', version: 'v1', resource: 'configmaps' }, 'default');
 *   await cms.create({ metadata: { name: 'x' }, data: { k: 'v' } });
 *   for await (const ev of cms.watch({ resourceVersion: rv }, signal)) …
 *
 * A TypedResource (controllerutil/resources.ts) types its client: `client.resource(PODS, ns).get(name)` is a
 * Promise<Pod>; a plain GroupVersionResource gives untyped ApiObjects.
 */
import type { IncomingMessage } from 'node:http';
import * as consumers from 'node:stream/consumers';
import type { ApiList, ApiObject, KindObject } from '../../apiserver/api/object.js';
import type { Status } from '../../apiserver/api/status.js';
import { errorFromResponse } from './api-errors.js';
import { loadKubeconfig, type KubeconfigOptions, type RestConfig } from './kubeconfig.js';
import { Transport, type TransportOptions } from './transport.js';

export interface GroupVersionResource {
  /** The served group name ('' for the core group). */
  group: string;
  version: string;
  /** The plural resource name. */
  resource: string;
}

/** Only the compiler sees this member: the kind of a TypedResource's objects. */
declare const objectKind: unique symbol;

/** A resource whose objects are of kind `T`; its clients and informers hand out `T`. */
export interface TypedResource<T extends KindObject = ApiObject> extends GroupVersionResource {
  readonly [objectKind]?: T;
}

/** The resource `group/version/resource`, whose objects are `T`: resourceOf<Pod>('', 'v1', 'pods'). */
export function resourceOf<T extends KindObject>(group: string, version: string, resource: string): TypedResource<T> {
  return { group, version, resource };
}

/** A watch event: an object of the resource's kind, or the Status of an ERROR. */
export type ObjectEvent<T = ApiObject> =
  | { type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK'; object: T }
  | { type: 'ERROR'; object: Status };

export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: 'Exact' | 'NotOlderThan';
}

export interface WatchOptions {
  resourceVersion?: string;
  labelSelector?: string;
  fieldSelector?: string;
  allowWatchBookmarks?: boolean;
  timeoutSeconds?: number;
}

/** metav1.DeleteOptions. */
export interface DeleteOptions {
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  orphanDependents?: boolean;
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: string[];
}

export type PatchType = 'application/merge-patch+json' | 'application/json-patch+json' | 'application/strategic-merge-patch+json';

/** Default page size of paged lists (client-go's pager). */
export const DEFAULT_PAGE_SIZE = 500;
/** Requests other than watches fail when no response starts within this long. */
const REQUEST_TIMEOUT_MS = 60_000;

export interface ApiClientOptions extends TransportOptions, Pick<KubeconfigOptions, 'context'> {}

export class ApiClient {
  readonly transport: Transport;

  constructor(config: RestConfig, opts: TransportOptions = {}) {
    this.transport = new Transport(config, opts);
  }

  /** A client for the kubeconfig's (current or named) context. */
  static fromKubeconfig(file: string, opts: ApiClientOptions = {}): ApiClient {
    return new ApiClient(loadKubeconfig(file, { context: opts.context, domain: opts.domain }), opts);
  }

  get config(): RestConfig {
    return this.transport.config;
  }

  /**
   * One call; resolves with the decoded JSON body (or the text of another content type), rejects
   * with an ApiError on a non-2xx answer.
   */
  async request<T = unknown>(method: string, path: string, opts: { body?: unknown; contentType?: string } = {}): Promise<T> {
    const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const headers = body === undefined ? {} : { 'Content-Type': opts.contentType ?? 'application/json' };
    const res = await this.transport.send(method, path, { body, headers, timeoutMs: REQUEST_TIMEOUT_MS });
    const text = await readText(res);
    const code = res.statusCode ?? 0;
    if (code < 200 || code > 299) throw errorFromResponse(code, text);
    const decoded: unknown = !/json/.test(res.headers['content-type'] ?? '') ? text : text ? JSON.parse(text) : undefined;
    // The answer is taken to be what the caller asked for (a typed resource's kind, a Status…), as client-go decodes into the caller's type.
    return decoded as T;
  }

  /** Opens a watch stream at `path` and yields its events until it ends or `signal` aborts. */
  async *watchPath<T = ApiObject>(path: string, signal?: AbortSignal): AsyncGenerator<ObjectEvent<T>> {
    const res = await this.transport.send('GET', path, { signal });
    const code = res.statusCode ?? 0;
    if (code < 200 || code > 299) throw errorFromResponse(code, await readText(res));
    yield* readEvents<T>(res, signal);
  }

  /** Operations on one resource, in `namespace` for namespaced ones ('' = all namespaces / cluster-scoped). */
  resource<T extends KindObject = ApiObject>(gvr: TypedResource<T>, namespace = ''): ResourceClient<T> {
    return new ResourceClient<T>(this, gvr, namespace);
  }

  close(): void {
    this.transport.close();
  }
}

function readText(res: IncomingMessage): Promise<string> {
  return consumers.text(res);
}

/**
 * Newline-delimited JSON watch events; the stream just ends when `signal` aborts it. What the server
 * sends is taken to be of the watched resource's kind, as every answer of a typed client is.
 */
async function* readEvents<T>(res: IncomingMessage, signal?: AbortSignal): AsyncGenerator<ObjectEvent<T>> {
  let buf = '';
  res.setEncoding('utf8');
  try {
    for await (const chunk of res) {
      buf += String(chunk); // a string: the encoding is set
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl).trim();
        buf = buf.slice(nl + 1);
        if (line) yield parseEvent<T>(line);
      }
    }
  } catch (err) {
    if (signal?.aborted) return;
    throw err;
  } finally {
    res.destroy();
  }
  if (buf.trim()) yield parseEvent<T>(buf);
}

function parseEvent<T>(line: string): ObjectEvent<T> {
  // What the server sends on a watch of a resource is an event of that resource's kind (or an ERROR's Status).
  return JSON.parse(line) as ObjectEvent<T>;
}

function query(params: Record<string, string | number | boolean | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** The calls on one group/version/resource, optionally in one namespace; its objects are `T`. */
export class ResourceClient<T extends KindObject = ApiObject> {
  constructor(
    readonly client: ApiClient,
    readonly gvr: TypedResource<T>,
    readonly namespace: string,
  ) {}

  /** The collection's path, or one object's (and its subresource's). */
  path(name?: string, subresource?: string): string {
    const { group, version, resource } = this.gvr;
    let p = group ? `/apis/${group}/${version}` : `/api/${version}`;
    if (this.namespace) p += `/namespaces/${encodeURIComponent(this.namespace)}`;
    p += `/${resource}`;
    if (name !== undefined) p += `/${encodeURIComponent(name)}`;
    if (subresource) p += `/${subresource}`;
    return p;
  }

  /** The same resource in another namespace. */
  inNamespace(namespace: string): ResourceClient<T> {
    return new ResourceClient<T>(this.client, this.gvr, namespace);
  }

  get(name: string): Promise<T> {
    return this.client.request('GET', this.path(name));
  }

  /** One page (or everything when no limit is given). */
  list(opts: ListOptions = {}): Promise<ApiList<T>> {
    return this.client.request('GET', this.path() + query({ ...opts }));
  }

  /** Every item, read in pages of `pageSize`; the resourceVersion is the first page's. */
  async listAll(opts: Omit<ListOptions, 'limit' | 'continue'> = {}, pageSize = DEFAULT_PAGE_SIZE): Promise<ApiList<T>> {
    const first = await this.list({ ...opts, limit: pageSize });
    const items = [...first.items];
    let next = first.metadata.continue;
    while (next) {
      const page = await this.list({
        labelSelector: opts.labelSelector,
        fieldSelector: opts.fieldSelector,
        limit: pageSize,
        continue: next,
      });
      items.push(...page.items);
      next = page.metadata.continue;
    }
    return { ...first, metadata: { resourceVersion: first.metadata.resourceVersion }, items };
  }

  create(obj: T, subresource?: string, name?: string): Promise<T> {
    return this.client.request('POST', this.path(name, subresource), { body: obj });
  }

  /** PUT of the object (its metadata.name names it), or of one of its subresources. */
  update(obj: T, subresource?: string): Promise<T> {
    return this.client.request('PUT', this.path(obj.metadata.name ?? '', subresource), { body: obj });
  }

  patch(name: string, patch: unknown, type: PatchType = 'application/merge-patch+json', subresource?: string): Promise<T> {
    return this.client.request('PATCH', this.path(name, subresource), { body: patch, contentType: type });
  }

  /** Resolves with what the server answers: a Status, or the object while it waits for finalizers. */
  delete(name: string, options: DeleteOptions = {}): Promise<T | Status> {
    return this.client.request('DELETE', this.path(name), { body: { kind: 'DeleteOptions', apiVersion: 'v1', ...options } });
  }

  deleteCollection(options: DeleteOptions = {}, listOptions: Pick<ListOptions, 'labelSelector' | 'fieldSelector'> = {}): Promise<ApiList> {
    return this.client.request('DELETE', this.path() + query({ ...listOptions }), {
      body: { kind: 'DeleteOptions', apiVersion: 'v1', ...options },
    });
  }

  /** A watch stream; ends when the server ends it or `signal` aborts. */
  watch(opts: WatchOptions = {}, signal?: AbortSignal): AsyncGenerator<ObjectEvent<T>> {
    return this.client.watchPath<T>(this.path() + query({ watch: 1, ...opts }), signal);
  }
}
