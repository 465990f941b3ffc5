/**
 * The set-up the fault tests share: inside a describe(), a cluster (2 replicas behind the front door,
 * no controller manager, etcd without fsync) started in before() on a fresh directory, with a client
 * through its front door; closed, stopped and removed in after().
 */
import { after, before } from 'node:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCluster, type Cluster, type ClusterOptions } from '../../scripts/cluster-topology.js';
import { newTestClient, type TestClient } from './http-client.js';
import { seedClusterFiles } from './test-pki.js';

export interface FaultCluster {
  /** Set once before() ran. */
  readonly cluster: Cluster;
  readonly client: TestClient;
}

export function useFaultCluster(options: Omit<ClusterOptions, 'dir'> = {}): FaultCluster {
  let dir: string | undefined;
  let cluster: Cluster | undefined;
  let client: TestClient | undefined;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-fault-'));
    // The run's cluster files (test-pki.ts), not some 65 new RSA keys per cluster.
    const domain = [...(options.apiserverArgs ?? [])].reverse().find((a) => a.startsWith('--api-domain='));
    seedClusterFiles(dir, domain?.slice('--api-domain='.length));
    cluster = await startCluster({ dir, replicas: 2, controllerManagers: 0, unsafeNoFsync: true, ...options });
    client = newTestClient({ url: cluster.url, ca: cluster.files.caPem, token: cluster.files.token });
  });
  after(async () => {
    client?.close();
    await cluster?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the fault cluster is not started: use it inside a test of the describe() that set it up');
    return value;
  };
  return {
    get cluster() {
      return started(cluster);
    },
    get client() {
      return started(client);
    },
  };
}
