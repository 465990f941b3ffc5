/**
 * The all-in-one's command line. Its own flags (--data-dir, --secure-port, --help) are read here;
 * every other flag goes to the child whose flag table has it — orch-apiserver, orch-controller-manager,
 * or both when both have it (--api-domain, -v, --bind-address). A flag neither knows, or one the
 * all-in-one sets on a child itself (the generated TLS files, the controller manager's kubeconfig…),
 * is a bad command line; so is a value a child would refuse, found before anything starts.
 */
import { createServer, type AddressInfo } from 'node:net';
import { Command, type ComponentOptions } from '../apiserver/component-base/cli/command.js';
import type { Flag, FlagSet } from '../apiserver/component-base/flag/flag-set.js';
import { OptionsError } from '../apiserver/component-base/flag/options-error.js';
import { scanArgs } from '../apiserver/component-base/flag/scan.js';
import { apiserverCommand } from '../apiserver/server/options.js';
import { controllerManagerCommand } from '../controllers/app/options.js';
import type { ClusterFiles } from './cluster-files.js';

/** What the all-in-one runs with. */
export interface AllInOneOptions {
  dataDir: string;
  securePort: number;
  /** Flags for orch-apiserver besides those the all-in-one sets (see apiserverArgs). */
  apiserverArgs: string[];
  /** Flags for orch-controller-manager besides those the all-in-one sets (see controllerManagerArgs). */
  controllerManagerArgs: string[];
}

/** The all-in-one's own flags. */
class AllInOneFlags implements ComponentOptions<Pick<AllInOneOptions, 'dataDir' | 'securePort'>> {
  dataDir = './data';
  securePort = 6443;

  addFlags(fs: FlagSet): void {
    fs.string(this, 'dataDir', 'data-dir', 'The directory of the certificates, keys and kubeconfigs, and the embedded store.');
    fs.int(this, 'securePort', 'secure-port', "The API server's HTTPS port, written to the admin kubeconfig.");
  }

  validate(): void {
    if (this.dataDir === '') throw new OptionsError('--data-dir must not be empty');
    if (this.securePort < 1 || this.securePort > 65535) {
      throw new OptionsError(`--secure-port ${this.securePort} must be between 1 and 65535, inclusive`);
    }
  }

  complete() {
    return { dataDir: this.dataDir, securePort: this.securePort };
  }
}

export const allInOneCommand = new Command({
  name: 'all-in-one',
  about: [
    'all-in-one (npm start) runs a one-machine orch cluster: orch-apiserver on the embedded store (or on',
    'etcd with --etcd-servers) and orch-controller-manager, with a generated CA, client certificates and kubeconfigs.',
    'Any other flag of orch-apiserver or orch-controller-manager is passed to the one that has it, or to',
    'both (see their --help).',
  ].join('\n'),
  newOptions: () => new AllInOneFlags(),
});

/** The paths the children are started with. */
export type ChildFiles = Pick<
  ClusterFiles,
  'caFile' | 'caKeyFile' | 'certFile' | 'keyFile' | 'serviceAccountKeyFile' | 'serviceAccountPublicKeyFile'
> & {
  /** The controller manager's own kubeconfig (system:kube-controller-manager, by client certificate). */
  controllerManagerKubeconfigFile: string;
  /** One kubeconfig per controller, each its own ServiceAccount identity. */
  controllerKubeconfigDir: string;
  controllerManagerCertDir: string;
};

/** The issuer of service-account tokens, as Kubernetes names its in-cluster API address. */
export const SERVICE_ACCOUNT_ISSUER = 'https://orch.default.svc';

/**
 * The flags the all-in-one sets on orch-apiserver itself; the user's come after them. With
 * `controllerManagerPort`, ComponentStatus probes the controller manager there.
 */
export function apiserverArgs(
  o: Pick<AllInOneOptions, 'dataDir' | 'securePort'>,
  files: ChildFiles,
  controllerManagerPort?: number,
): string[] {
  return [
    `--data-dir=${o.dataDir}`,
    `--secure-port=${o.securePort}`,
    `--tls-cert-file=${files.certFile}`,
    `--tls-private-key-file=${files.keyFile}`,
    `--client-ca-file=${files.caFile}`,
    '--authorization-mode=Node,RBAC',
    `--service-account-issuer=${SERVICE_ACCOUNT_ISSUER}`,
    `--service-account-signing-key-file=${files.serviceAccountKeyFile}`,
    `--service-account-key-file=${files.serviceAccountPublicKeyFile}`,
    ...(controllerManagerPort ? [`--controller-manager-port=${controllerManagerPort}`] : []),
  ];
}

/**
 * The flags the all-in-one sets on orch-controller-manager itself. Its /healthz and /metrics port
 * is picked free (`securePort`, which the all-in-one also gives the API server's ComponentStatus
 * probe; 0: by the controller manager, logged), so several clusters fit on one host; approved certificate requests
 * are signed by the cluster CA, which the API server trusts for client certificates, and token
 * Secrets with the service-account key, whose public half the API server verifies tokens with.
 */
export function controllerManagerArgs(files: ChildFiles, securePort = 0): string[] {
  return [
    `--kubeconfig=${files.controllerManagerKubeconfigFile}`,
    `--controller-kubeconfig-dir=${files.controllerKubeconfigDir}`,
    `--secure-port=${securePort}`,
    `--cert-dir=${files.controllerManagerCertDir}`,
    `--cluster-signing-cert-file=${files.caFile}`,
    `--cluster-signing-key-file=${files.caKeyFile}`,
    `--service-account-private-key-file=${files.serviceAccountKeyFile}`,
  ];
}

/** A port free on 127.0.0.1 now (the system picks it), for a child to listen on. */
export function freeLocalPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Stand-ins for the generated files: checking a child's command line needs only that they are given. */
const SOME_FILES: ChildFiles = {
  caFile: 'ca.crt',
  caKeyFile: 'ca.key',
  certFile: 'apiserver.crt',
  keyFile: 'apiserver.key',
  serviceAccountKeyFile: 'service-account.key',
  serviceAccountPublicKeyFile: 'service-account.pub',
  controllerManagerKubeconfigFile: 'controller-manager.kubeconfig',
  controllerKubeconfigDir: 'controllers',
  controllerManagerCertDir: 'controller-manager',
};

/** A child: its command and the flags the all-in-one sets on it. */
interface Child {
  command: Command<unknown>;
  flags: FlagSet;
  fixed: (own: Pick<AllInOneOptions, 'dataDir' | 'securePort'>) => string[];
  args: string[];
}

/** Parses the all-in-one's command line; throws OptionsError with a one-line reason. */
export function parseAllInOne(argv: string[]): { help: true } | { help: false; options: AllInOneOptions } {
  const own = allInOneCommand.flagSet().fs;
  const children: Child[] = [
    { command: apiserverCommand, flags: apiserverCommand.flagSet().fs, fixed: (o) => apiserverArgs(o, SOME_FILES, 10257), args: [] },
    {
      command: controllerManagerCommand,
      flags: controllerManagerCommand.flagSet().fs,
      fixed: () => controllerManagerArgs(SOME_FILES),
      args: [],
    },
  ];
  const tables = [own, ...children.map((c) => c.flags)];
  const { flags, args } = scanArgs<Flag>(argv, {
    long: (name) => tables.map((t) => t.long(name)).find(Boolean),
    short: (letter) => tables.map((t) => t.short(letter)).find(Boolean),
  });
  if (args.length > 0) throw new OptionsError(`"${allInOneCommand.name}" does not take any arguments, got ${JSON.stringify(args)}`);

  const ownArgs: string[] = [];
  for (const { flag, value } of flags) {
    const arg = `--${flag.name}=${value}`;
    if (own.long(flag.name)) ownArgs.push(arg);
    else for (const child of children.filter((c) => c.flags.long(flag.name))) child.args.push(arg);
  }
  const parsed = allInOneCommand.parse(ownArgs);
  if (parsed.help) return parsed;

  for (const child of children) {
    const fixed = child.fixed(parsed.options);
    const taken = new Set(fixed.map((a) => /^--([^=]+)/.exec(a)![1]));
    const clash = child.args.map((a) => /^--([^=]+)/.exec(a)![1]).find((name) => taken.has(name));
    if (clash) throw new OptionsError(`--${clash} is set by the all-in-one for ${child.command.name}`);
    try {
      child.command.options([...fixed, ...child.args]);
    } catch (err) {
      if (err instanceof OptionsError) throw new OptionsError(`${child.command.name}: ${err.message}`);
      throw err;
    }
  }
  return { help: false, options: { ...parsed.options, apiserverArgs: children[0].args, controllerManagerArgs: children[1].args } };
}
