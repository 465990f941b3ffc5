/**
 * GET /debug/cluster: what this server knows of the cluster it is part of, as JSON for the console's
 * overview: the storage backend and its health (etcd: members, leader, db sizes; the embedded store:
 * its file and WAL sizes), the worker processes serving the port, this replica's identity Lease and
 * the system namespace (where the identity Leases and the controller manager's leader Lease live,
 * read by the console through the API). A non-resource
 * path behind authentication and authorization like /metrics: RBAC decides who may read it
 * (nonResourceURLs, `get`; system:masters may). Nothing is opened until someone asks.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as status from '../api/status.js';
import type { ApiDomain } from '../api/domain.js';
import { newEtcdStatusSource } from '../storage/etcd3/cluster-status.js';
import { sqliteFileStatus } from '../storage/sqlite/file-status.js';
import { sqlitePath } from './metered-storage.js';
import type { ServerOptions } from './options.js';

export const CLUSTER_STATUS_PATH = '/debug/cluster';

export interface ClusterStatusSource {
  serve(req: IncomingMessage, res: ServerResponse): Promise<void>;
  close(): void;
}

/** This replica's identity Lease, once it runs (absent with APIServerIdentity off). */
export type IdentityOf = () => { lease: string; holderIdentity: string } | undefined;

export function newClusterStatus(
  options: ServerOptions,
  domain: ApiDomain,
  workers: number,
  identity: IdentityOf = () => undefined,
): ClusterStatusSource {
  const etcd = options.storageBackend === 'etcd3' ? newEtcdStatusSource(options.etcdServers) : undefined;
  return {
    async serve(req, res) {
      if (req.method !== 'GET' && req.method !== 'HEAD') throw status.methodNotAllowed();
      const storage = etcd ? await etcd.status() : await sqliteFileStatus(sqlitePath(options));
      const body = JSON.stringify({
        storage,
        server: { workers, pid: process.pid, systemNamespace: domain.systemNamespace, domain: domain.domain, identity: identity() },
      });
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : body);
    },
    close: () => etcd?.close(),
  };
}
