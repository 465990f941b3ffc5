/**
 * `npm run cluster`: the highly available shape as local processes (see cluster-topology.ts): 3 etcd
 * members, --replicas orch-apiserver replicas, orch-proxy on --secure-port in front of them and 2
 * leader-elected controller managers. Prints the kubeconfig paths and the processes' pids once the
 * front door answers. It supervises them: a process that dies unasked (kill -9, a crash) is reported on
 * stderr (`cluster: ERROR apiserver-1 (pid 1234) was killed by SIGKILL; restarting it in 1s …`) and
 * started again with backoff (1 s, doubling, at most 30 s), then reported back. Ctrl+C stops
 * everything, in order (the data directory stays, and a later run on it starts the same cluster again).
 *
 *   node dist/scripts/cluster.js [--data-dir DIR] [--replicas N] [--secure-port PORT]
 */
import { Command, type ComponentOptions } from '../apiserver/component-base/cli/command.js';
import { checkPort } from '../apiserver/component-base/flag/checks.js';
import type { FlagSet } from '../apiserver/component-base/flag/flag-set.js';
import { OptionsError } from '../apiserver/component-base/flag/options-error.js';
import { startCluster } from './cluster-topology.js';

interface ClusterCommandOptions {
  dataDir: string;
  replicas: number;
  securePort: number;
}

class ClusterFlags implements ComponentOptions<ClusterCommandOptions> {
  dataDir = './data/cluster';
  replicas = 2;
  securePort = 6443;

  addFlags(fs: FlagSet): void {
    fs.string(this, 'dataDir', 'data-dir', "The directory of the cluster's certificates, kubeconfigs, etcd data and logs.");
    fs.int(this, 'replicas', 'replicas', 'How many orch-apiserver replicas run behind the front door.');
    fs.int(this, 'securePort', 'secure-port', "The front door's HTTPS port (0 picks a free one the first time).");
  }

  validate(): void {
    if (this.dataDir === '') throw new OptionsError('--data-dir must not be empty');
    if (this.replicas < 1) throw new OptionsError(`--replicas ${this.replicas} must be at least 1`);
    checkPort('secure-port', this.securePort);
  }

  complete(): ClusterCommandOptions {
    return { dataDir: this.dataDir, replicas: this.replicas, securePort: this.securePort };
  }
}

const clusterCommand = new Command<ClusterCommandOptions>({
  name: 'cluster',
  about:
    'cluster (npm run cluster) runs a highly available orch cluster as local processes: 3 etcd members, the API server replicas, the orch-proxy front door and 2 controller managers.',
  newOptions: () => new ClusterFlags(),
});

const options = clusterCommand.execute();
const say = (line: string): void => {
  process.stderr.write(`cluster: ${line}\n`);
};
const cluster = await startCluster({
  dir: options.dataDir,
  replicas: options.replicas,
  port: options.securePort,
  supervise: { say },
}).catch((err: unknown) => {
  process.stderr.write(`cluster: ${(err as Error).message}\n`);
  process.exit(1);
});
let stopping = false;
const stop = (): void => {
  if (stopping) return;
  stopping = true;
  void cluster.stop().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
const members = [...cluster.etcd, ...cluster.apiservers, cluster.proxy, ...cluster.controllerManagers];
// The processes run in process groups of their own: if this one ends without stopping them, so do they.
process.on('exit', () => {
  for (const m of members) m.child()?.kill('SIGTERM');
});
process.stdout.write(
  [
    `orch cluster is ready at ${cluster.url} (${options.replicas} replicas, 3 etcd members, 2 controller managers; logs in ${options.dataDir}/logs)`,
    `kubeconfig (client certificate): ${cluster.kubeconfig}`,
    `kubeconfig (token): ${cluster.tokenKubeconfig}`,
    `kubectl --kubeconfig ${cluster.kubeconfig} get ns`,
    `processes: ${members.map((m) => `${m.name} (pid ${m.child()?.pid})`).join(', ')}`,
    '',
  ].join('\n'),
);
