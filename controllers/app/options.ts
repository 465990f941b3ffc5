/**
 * Command-line options of orch-controller-manager, parsed like kube-controller-manager's (pflag):
 * `--flag=value` or `--flag value`, booleans as `--flag` / `--flag=false`, comma lists that accumulate
 * when repeated, Go durations, and one-line errors worded like pflag's.
 */
import { isIP } from 'node:net';
import { parseGoDuration } from '../../apiserver/server/options.js';
import { enabledControllers } from './controller-names.js';

export interface ControllerManagerOptions {
  /** --kubeconfig: the cluster to manage and the identity to use. */
  kubeconfig: string;
  /** --controllers: `*`, `name`, `-name` entries (see controller-names.ts). */
  controllers: string[];
  leaderElect: boolean;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  /** --leader-elect-resource-name; '' = "<prefix>-controller-manager". */
  leaseName: string;
  /** --leader-elect-resource-namespace; '' = the system namespace. */
  leaseNamespace: string;
  /** --secure-port for /healthz and /metrics; 0 picks a free port. */
  securePort: number;
  bindAddress: string;
  /** --cert-dir for the self-signed serving certificate; '' = a temporary folder. */
  certDir: string;
  apiDomain: string;
  /** --root-ca-file; '' = the kubeconfig's CA. */
  rootCaFile: string;
  concurrentNamespaceSyncs: number;
  concurrentGcSyncs: number;
  namespaceSyncPeriodMs: number;
  /** Informers resync at a random period between this and twice it. */
  minResyncPeriodMs: number;
  /** The winston level --v maps to. */
  logLevel: string;
}

/** A bad command line; the message is one line. */
export class OptionsError extends Error {
  override name = 'OptionsError';
}

type Kind = 'string' | 'strings' | 'bool' | 'int' | 'duration';

interface Flag {
  name: string;
  kind: Kind;
  def: string;
  usage: string;
}

const FLAGS: Flag[] = [
  {
    name: 'kubeconfig',
    kind: 'string',
    def: '',
    usage: 'Path to kubeconfig file with authorization and master location information (required).',
  },
  {
    name: 'controllers',
    kind: 'strings',
    def: '*',
    usage:
      "A list of controllers to enable. '*' enables all on-by-default controllers, 'foo' enables the controller named 'foo', '-foo' disables the controller named 'foo'.",
  },
  {
    name: 'leader-elect',
    kind: 'bool',
    def: 'true',
    usage:
      'Start a leader election client and gain leadership before executing the main loop. Enable this when running replicated components for high availability.',
  },
  {
    name: 'leader-elect-lease-duration',
    kind: 'duration',
    def: '15s',
    usage:
      'The duration that non-leader candidates will wait after observing a leadership renewal until attempting to acquire leadership of a led but unrenewed leader slot.',
  },
  {
    name: 'leader-elect-renew-deadline',
    kind: 'duration',
    def: '10s',
    usage:
      'The interval between attempts by the acting master to renew a leadership slot before it stops leading. This must be less than the lease duration.',
  },
  {
    name: 'leader-elect-retry-period',
    kind: 'duration',
    def: '2s',
    usage: 'The duration the clients should wait between attempting acquisition and renewal of a leadership.',
  },
  {
    name: 'leader-elect-resource-name',
    kind: 'string',
    def: '',
    usage: 'The name of the Lease used for locking during leader election (default "<prefix>-controller-manager").',
  },
  {
    name: 'leader-elect-resource-namespace',
    kind: 'string',
    def: '',
    usage: 'The namespace of the Lease used for locking during leader election (default the system namespace).',
  },
  { name: 'secure-port', kind: 'int', def: '10257', usage: 'The port on which to serve HTTPS /healthz and /metrics. 0 picks a free port.' },
  { name: 'bind-address', kind: 'string', def: '0.0.0.0', usage: 'The IP address on which to listen for the --secure-port port.' },
  {
    name: 'cert-dir',
    kind: 'string',
    def: '',
    usage: 'The directory of the self-signed serving certificate. Empty uses a temporary directory.',
  },
  {
    name: 'api-domain',
    kind: 'string',
    def: 'orch.io',
    usage: "The API server's --api-domain: the DNS suffix of built-in API group names.",
  },
  {
    name: 'root-ca-file',
    kind: 'string',
    def: '',
    usage: "If set, this root certificate authority will be published to every namespace; else the kubeconfig's certificate authority is.",
  },
  {
    name: 'concurrent-namespace-syncs',
    kind: 'int',
    def: '10',
    usage: 'The number of namespace objects that are allowed to sync concurrently.',
  },
  {
    name: 'concurrent-gc-syncs',
    kind: 'int',
    def: '20',
    usage: 'The number of garbage collector workers that are allowed to sync concurrently.',
  },
  { name: 'namespace-sync-period', kind: 'duration', def: '5m0s', usage: 'The period for syncing namespace life-cycle updates.' },
  {
    name: 'min-resync-period',
    kind: 'duration',
    def: '12h0m0s',
    usage: 'The resync period in reflectors will be random between MinResyncPeriod and 2*MinResyncPeriod.',
  },
  { name: 'v', kind: 'int', def: '0', usage: 'number for the log level verbosity (0..10)' },
  { name: 'help', kind: 'bool', def: 'false', usage: 'help for orch-controller-manager' },
];

/** The --help text. */
export function usage(): string {
  const heads = FLAGS.map((f) => `      --${f.name}${f.kind === 'bool' ? '' : ` ${f.kind === 'strings' ? 'strings' : f.kind}`}`);
  const width = Math.max(...heads.map((h) => h.length)) + 3;
  const lines = FLAGS.map((f, i) => {
    const shown = f.kind === 'string' ? JSON.stringify(f.def) : f.kind === 'strings' ? `[${f.def}]` : f.def;
    const def = ['', '0', 'false'].includes(f.def) ? '' : ` (default ${shown})`;
    return heads[i].padEnd(width) + f.usage + def;
  });
  return [
    'The orch controller manager runs the control loops that keep the cluster in its desired state:',
    'namespace deletion, garbage collection, default service accounts and root CA publishing.',
    '',
    'Usage:',
    '  orch-controller-manager [flags]',
    '',
    'Flags:',
    ...lines,
    '',
  ].join('\n');
}

/** Flag name → values in order of appearance. */
function scan(argv: string[]): Map<string, string[]> {
  const seen = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('-') || arg === '-' || arg === '--') {
      throw new OptionsError(
        `"orch-controller-manager" does not take any arguments, got ${JSON.stringify(argv.slice(i).filter((a) => a !== '--'))}`,
      );
    }
    const body = arg.replace(/^--?/, '');
    const eq = body.indexOf('=');
    const name = eq < 0 ? body : body.slice(0, eq);
    const flag = FLAGS.find((f) => f.name === name || (name === 'h' && f.name === 'help'));
    if (!flag) throw new OptionsError(`unknown flag: ${arg.startsWith('--') ? '--' : '-'}${name}`);
    let value: string | undefined = eq < 0 ? undefined : body.slice(eq + 1);
    if (value === undefined) {
      if (flag.kind === 'bool') value = 'true';
      else if (i + 1 < argv.length) value = argv[++i];
      else throw new OptionsError(`flag needs an argument: --${flag.name}`);
    }
    seen.set(flag.name, [...(seen.get(flag.name) ?? []), value]);
  }
  return seen;
}

function invalid(name: string, value: string, why: string): OptionsError {
  return new OptionsError(`invalid argument ${JSON.stringify(value)} for "--${name}" flag: ${why}`);
}

/** True when the arguments ask for --help (after checking that every flag is known). */
export function helpRequested(argv: string[]): boolean {
  const values = scan(argv).get('help');
  return values !== undefined && values[values.length - 1] !== 'false';
}

/** Parses orch-controller-manager's arguments; throws OptionsError. */
export function parseOptions(argv: string[]): ControllerManagerOptions {
  const seen = scan(argv);
  const raw = (name: string) => seen.get(name)?.at(-1) ?? FLAGS.find((f) => f.name === name)!.def;
  const bool = (name: string) => {
    const v = raw(name);
    if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(v)) return true;
    if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(v)) return false;
    throw invalid(name, v, `strconv.ParseBool: parsing ${JSON.stringify(v)}: invalid syntax`);
  };
  const int = (name: string, min: number) => {
    const v = raw(name);
    if (!/^[+-]?\d+$/.test(v)) throw invalid(name, v, `strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`);
    if (Number(v) < min) throw new OptionsError(`--${name} must be at least ${min}`);
    return Number(v);
  };
  const duration = (name: string) => {
    const v = raw(name);
    let ms: number;
    try {
      ms = parseGoDuration(v);
    } catch (err) {
      throw invalid(name, v, (err as Error).message);
    }
    if (ms <= 0) throw new OptionsError(`--${name} must be greater than zero`);
    return ms;
  };

  const kubeconfig = raw('kubeconfig');
  if (!kubeconfig) throw new OptionsError('--kubeconfig is required');
  const securePort = int('secure-port', 0);
  if (securePort > 65535) throw new OptionsError(`--secure-port ${securePort} must be between 0 and 65535, inclusive. 0 picks a free port`);
  const bindAddress = raw('bind-address');
  if (isIP(bindAddress) === 0) throw invalid('bind-address', bindAddress, `failed to parse IP: ${JSON.stringify(bindAddress)}`);
  const v = int('v', 0);
  if (v > 10) throw new OptionsError(`--v ${v} must be between 0 and 10, inclusive`);
  const controllers = (seen.get('controllers') ?? ['*'])
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  try {
    enabledControllers(controllers);
  } catch (err) {
    throw new OptionsError(`--controllers: ${(err as Error).message}`);
  }
  return {
    kubeconfig,
    controllers,
    leaderElect: bool('leader-elect'),
    leaseDurationMs: duration('leader-elect-lease-duration'),
    renewDeadlineMs: duration('leader-elect-renew-deadline'),
    retryPeriodMs: duration('leader-elect-retry-period'),
    leaseName: raw('leader-elect-resource-name'),
    leaseNamespace: raw('leader-elect-resource-namespace'),
    securePort,
    bindAddress,
    certDir: raw('cert-dir'),
    apiDomain: raw('api-domain'),
    rootCaFile: raw('root-ca-file'),
    concurrentNamespaceSyncs: int('concurrent-namespace-syncs', 1),
    concurrentGcSyncs: int('concurrent-gc-syncs', 1),
    namespaceSyncPeriodMs: duration('namespace-sync-period'),
    minResyncPeriodMs: duration('min-resync-period'),
    logLevel: v >= 6 ? 'silly' : v >= 4 ? 'debug' : v >= 2 ? 'verbose' : 'info',
  };
}
