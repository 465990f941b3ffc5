/** What every REST handler gets: the server's API context and the facts of this one request. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ResourceDef } from '../../api/resource.js';
import type { ResourceTable } from '../../api/resource-table.js';
import type { Definitions } from '../../api/schema.js';
import type { ProtobufCodec } from '../../runtime/protobuf/codec.js';
import type { GenericStore } from '../../registry/generic/store.js';
import type { RequestContext } from '../../registry/generic/request-context.js';
import type { RequestInfo } from '../request/request-info.js';
import type { Encoding, Output } from '../negotiation.js';
import type { WriteOptions } from '../responses.js';
import { writeObject } from '../responses.js';
import type { ConnectConfig } from './connect.js';
import type { WatchWriterLimits } from './watch-writer.js';
import type { WatchesPerUser } from './watches-per-user.js';

/** Server-wide state the handlers read. */
export interface ApiContext {
  table: ResourceTable;
  stores: ReadonlyMap<ResourceDef, GenericStore>;
  definitions: Definitions;
  /** The protobuf form of the served kinds. */
  protobuf: ProtobufCodec;
  maxRequestBytes: number;
  minRequestTimeoutSeconds: number;
  /** How CONNECT subresources reach node agents and backends. */
  connect: ConnectConfig;
  /** false: `limit` and `continue` are ignored (the APIListChunking feature gate). */
  listChunking?: boolean;
  /** false: `sendInitialEvents` is refused and watches are not defaulted to send it (the WatchList feature gate). */
  watchList?: boolean;
  /** Where handlers report what the server's metrics count; absent, nothing is counted. */
  metrics?: EndpointMetrics;
  /** How much a watch client may leave unread, and the size of writes to it; absent, the defaults (watch-writer.ts). */
  watchLimits?: WatchWriterLimits;
  /** How many watches each user holds open; absent, no limit. */
  watchesPerUser?: WatchesPerUser;
  /** Where handlers log what is not an error of the request (a watch closed as too slow). */
  logger?: { info(message: string, meta?: Record<string, unknown>): void };
}

/** What the REST handlers report to the server's metrics. */
export interface EndpointMetrics {
  /** The counter of events sent to watchers of a kind (apiserver_watch_events_total). */
  watchEvents(group: string, version: string, kind: string): { inc(): void };
  /** A watch was closed because its client did not read (apiserver_terminated_watchers_total). */
  terminatedWatcher(group: string, resource: string): void;
  /** A deprecated version was requested (apiserver_requested_deprecated_apis). */
  deprecatedApiRequested(labels: { group: string; version: string; resource: string; subresource: string; removedRelease: string }): void;
}

export interface RequestScope {
  api: ApiContext;
  def: ResourceDef;
  store: GenericStore;
  info: RequestInfo;
  query: URLSearchParams;
  req: IncomingMessage;
  res: ServerResponse;
  encoding: Encoding;
  /** The negotiated view (object, Table, metadata) of reads. */
  output: Output;
  pretty: boolean;
  ctx: RequestContext;
  /** Collected for the response's Warning headers. */
  warnings: string[];
}

export function respond(scope: RequestScope, code: number, body: unknown, extra: Partial<WriteOptions> = {}): void {
  writeObject(scope.res, code, body, {
    encoding: scope.encoding,
    mediaType: scope.output.mediaType,
    protobuf: scope.api.protobuf,
    pretty: scope.pretty,
    warnings: scope.warnings,
    ...extra,
  });
}
