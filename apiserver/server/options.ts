/**
 * Command-line options of orch-apiserver, parsed the way kube-apiserver's pflag/cobra setup does:
 * `--flag=value` and `--flag value`, booleans as `--flag` or `--flag=false`, comma lists that
 * accumulate when repeated, Go durations, and one-line errors worded like pflag's.
 */
import { isIP } from 'node:net';
import { join } from 'node:path';
import { AUTHORIZATION_MODES, type AuthorizationMode } from '../authorization/interfaces.js';
import { DEFAULT_SERVICE_CLUSTER_IP_RANGE, parseServiceClusterIPRanges } from '../registry/core/service/allocator/service-cidrs.js';
import { parsePortRange, type PortRange } from '../registry/core/service/allocator/port-range.js';

/** Everything orch-apiserver can be told on its command line. */
export interface ServerOptions {
  /** --etcd-servers (comma list of URLs); empty → embedded store. */
  etcdServers: string[];
  /** --etcd-prefix, default "/registry". */
  etcdPrefix: string;
  /** --etcd-compaction-interval, default 5m; 0 disables. */
  etcdCompactionIntervalMs: number;
  /** --storage-backend; etcd3 when --etcd-servers is set, else sqlite. */
  storageBackend: 'etcd3' | 'sqlite';
  /** --data-dir, default "./data"; the embedded store lives in <dataDir>/state.db. */
  dataDir: string;
  /** --secure-port, default 6443; 0 picks a free port. */
  securePort: number;
  /** --bind-address, default "0.0.0.0". */
  bindAddress: string;
  /** --tls-cert-file (given together with tlsPrivateKeyFile or not at all). */
  tlsCertFile?: string;
  /** --tls-private-key-file. */
  tlsPrivateKeyFile?: string;
  /** --cert-dir, default "<dataDir>/certs": where the self-signed serving cert goes when no TLS files are given. */
  certDir: string;
  /** --client-ca-file: enables x509 client-certificate authentication. */
  clientCAFile?: string;
  /** --token-auth-file: enables static bearer-token authentication. */
  tokenAuthFile?: string;
  /** --anonymous-auth, default true. */
  anonymousAuth: boolean;
  /** --authorization-mode, default [AlwaysAllow]. */
  authorizationModes: AuthorizationMode[];
  /** --api-domain, default "orch.io": API groups are named <group>.<apiDomain>. */
  apiDomain: string;
  /** --shutdown-delay-duration, default 0. */
  shutdownDelayMs: number;
  /** --livez-grace-period, default 0. */
  livezGracePeriodMs: number;
  /** --max-request-bytes, default 3145728. */
  maxRequestBytes: number;
  /** --min-request-timeout in seconds, default 1800 (bounds watch timeouts). */
  minRequestTimeoutSeconds: number;
  /** --request-timeout, default 60s. */
  requestTimeoutMs: number;
  /** The winston level that -v/--v (0..10, default 0) maps to. */
  logLevel: string;
  /** --service-cluster-ip-range, default 10.0.0.0/24: one CIDR, or two of different IP families (the first is the default family). */
  serviceClusterIPRanges: string[];
  /** --service-node-port-range, default 30000-32767. */
  serviceNodePortRange: PortRange;
  /** --watch-cache, default true: lists, gets and watches are served from memory. */
  watchCache: boolean;
  /** --default-watch-cache-size, default 10000: the most changes a resource's watch cache keeps; 0 disables the cache. */
  defaultWatchCacheSize: number;
}

/** A bad command line; the message is one line, worded like pflag's. */
export class OptionsError extends Error {
  override name = 'OptionsError';
}

type FlagKind = 'string' | 'strings' | 'bool' | 'int' | 'duration' | 'portRange';

interface FlagSpec {
  name: string;
  kind: FlagKind;
  /** The default as it would be typed on the command line ('' = none or computed). */
  def: string;
  usage: string;
  shorthand?: string;
}

const FLAGS: FlagSpec[] = [
  {
    name: 'etcd-servers',
    kind: 'strings',
    def: '',
    usage: 'List of etcd servers to connect with (scheme://ip:port), comma separated. Empty runs on the embedded store.',
  },
  { name: 'etcd-prefix', kind: 'string', def: '/registry', usage: 'The prefix to prepend to all resource paths in etcd.' },
  {
    name: 'etcd-compaction-interval',
    kind: 'duration',
    def: '5m',
    usage: 'The interval of compaction requests. If 0, the compaction request from apiserver is disabled.',
  },
  {
    name: 'storage-backend',
    kind: 'string',
    def: '',
    usage:
      "The storage backend for persistence. Options: 'etcd3', 'sqlite'. Defaults to 'etcd3' when --etcd-servers is set, else 'sqlite'.",
  },
  {
    name: 'data-dir',
    kind: 'string',
    def: './data',
    usage: 'The directory of the embedded store (state.db) and, by default, of generated certificates.',
  },
  {
    name: 'secure-port',
    kind: 'int',
    def: '6443',
    usage: 'The port on which to serve HTTPS with authentication and authorization. 0 picks a free port.',
  },
  { name: 'bind-address', kind: 'string', def: '0.0.0.0', usage: 'The IP address on which to listen for the --secure-port port.' },
  {
    name: 'tls-cert-file',
    kind: 'string',
    def: '',
    usage:
      'File containing the default x509 certificate for HTTPS (CA cert, if any, concatenated after server cert). If neither this nor --tls-private-key-file is given, a self-signed certificate and key are generated in --cert-dir.',
  },
  {
    name: 'tls-private-key-file',
    kind: 'string',
    def: '',
    usage: 'File containing the default x509 private key matching --tls-cert-file.',
  },
  {
    name: 'cert-dir',
    kind: 'string',
    def: '',
    usage:
      'The directory where the TLS certs are located. If --tls-cert-file and --tls-private-key-file are provided, this flag will be ignored. Defaults to <data-dir>/certs.',
  },
  {
    name: 'client-ca-file',
    kind: 'string',
    def: '',
    usage:
      'If set, any request presenting a client certificate signed by one of the authorities in the client-ca-file is authenticated with an identity corresponding to the CommonName of the client certificate.',
  },
  {
    name: 'token-auth-file',
    kind: 'string',
    def: '',
    usage: 'If set, the file that will be used to secure the secure port of the API server via token authentication.',
  },
  {
    name: 'anonymous-auth',
    kind: 'bool',
    def: 'true',
    usage:
      'Enables anonymous requests to the secure port of the API server. Requests that are not rejected by another authentication method are treated as anonymous requests. Anonymous requests have a username of system:anonymous, and a group name of system:unauthenticated.',
  },
  {
    name: 'authorization-mode',
    kind: 'strings',
    def: 'AlwaysAllow',
    usage: `Ordered list of plug-ins to do authorization on secure port. Comma-delimited list of: ${AUTHORIZATION_MODES.join(',')}.`,
  },
  { name: 'api-domain', kind: 'string', def: 'orch.io', usage: 'The DNS suffix of built-in API group names (e.g. apps.<api-domain>).' },
  {
    name: 'shutdown-delay-duration',
    kind: 'duration',
    def: '0s',
    usage:
      'Time to delay the termination. During that time the server keeps serving requests normally. The endpoints /healthz and /livez will return success, but /readyz immediately returns failure.',
  },
  {
    name: 'livez-grace-period',
    kind: 'duration',
    def: '0s',
    usage:
      "This option represents the maximum amount of time it should take for apiserver to complete its startup sequence and become live. From apiserver's start time to when this amount of time has elapsed, /livez will assume that unfinished post-start hooks will complete successfully and therefore return true.",
  },
  {
    name: 'max-request-bytes',
    kind: 'int',
    def: '3145728',
    usage: 'The limit on the request body size that will be accepted by the API server.',
  },
  {
    name: 'min-request-timeout',
    kind: 'int',
    def: '1800',
    usage:
      'An optional field indicating the minimum number of seconds a handler must keep a request open before timing it out. Currently only honored by the watch request handler, which picks a randomized value above this number as the connection timeout, to spread out load.',
  },
  {
    name: 'request-timeout',
    kind: 'duration',
    def: '1m0s',
    usage:
      'An optional field indicating the duration a handler must keep a request open before timing it out. This is the default request timeout for requests but may be overridden by flags such as --min-request-timeout for specific types of requests.',
  },
  { name: 'watch-cache', kind: 'bool', def: 'true', usage: 'Enable watch caching in the apiserver' },
  {
    name: 'default-watch-cache-size',
    kind: 'int',
    def: '10000',
    usage:
      "The most changes a resource's watch cache keeps (it keeps those of the last 5 minutes, up to this many). If zero, the watch cache is disabled.",
  },
  {
    name: 'service-cluster-ip-range',
    kind: 'string',
    def: DEFAULT_SERVICE_CLUSTER_IP_RANGE,
    usage:
      'A CIDR notation IP range from which to assign service cluster IPs. This must not overlap with any IP ranges assigned to nodes or pods. Max of two dual-stack CIDRs is allowed.',
  },
  {
    name: 'service-node-port-range',
    kind: 'portRange',
    def: '30000-32767',
    usage:
      "A port range to reserve for services with NodePort visibility.  This must not overlap with the ephemeral port range on nodes.  Example: '30000-32767'. Inclusive at both ends of the range.",
  },
  { name: 'v', shorthand: 'v', kind: 'int', def: '0', usage: 'number for the log level verbosity (0..10)' },
  { name: 'help', shorthand: 'h', kind: 'bool', def: 'false', usage: 'help for orch-apiserver' },
];

const TYPE_NAMES: Record<FlagKind, string> = {
  string: 'string',
  strings: 'strings',
  bool: '',
  int: 'int',
  duration: 'duration',
  portRange: 'portRange',
};
/** Like pflag, --help leaves out defaults that are zero values. */
const ZERO_VALUES = ['', '0', '0s', 'false'];
const DEFAULT_DISPLAY: Record<string, string> = { 'etcd-compaction-interval': '5m0s', 'authorization-mode': '[AlwaysAllow]' };

/** The --help text. */
export function usage(): string {
  const heads = FLAGS.map((f) => {
    const head = f.shorthand ? `  -${f.shorthand}, --${f.name}` : `      --${f.name}`;
    return f.kind === 'bool' ? head : `${head} ${TYPE_NAMES[f.kind]}`;
  });
  const width = Math.max(...heads.map((h) => h.length)) + 3;
  const lines = FLAGS.map((f, i) => {
    const shown = DEFAULT_DISPLAY[f.name] ?? (f.kind === 'string' ? JSON.stringify(f.def) : f.def);
    const def = ZERO_VALUES.includes(f.def) ? '' : ` (default ${shown})`;
    return heads[i].padEnd(width) + f.usage + def;
  });
  return [
    'The orch API server validates and configures data for the api objects. The API server',
    "services REST operations and provides the frontend to the cluster's shared state",
    'through which all other components interact.',
    '',
    'Usage:',
    '  orch-apiserver [flags]',
    '',
    'Flags:',
    ...lines,
    '',
  ].join('\n');
}

/** Writes the --help text to stdout. */
export function printUsage(): void {
  process.stdout.write(usage());
}

/** True when the arguments ask for --help/-h (after checking that every flag is known). */
export function helpRequested(argv: string[]): boolean {
  return new FlagValues(scan(argv)).bool('help');
}

/** Parses orch-apiserver's arguments (without node and the script); throws OptionsError. */
export function parseServerOptions(argv: string[]): ServerOptions {
  const flags = new FlagValues(scan(argv));

  const etcdServers = flags.list('etcd-servers');
  for (const s of etcdServers) {
    if (!/^https?:\/\/[^/]+/.test(s)) throw new OptionsError(`--etcd-servers: ${JSON.stringify(s)} is not an http:// or https:// URL`);
  }
  const storageBackend = resolveStorageBackend(flags.str('storage-backend'), etcdServers.length > 0);
  const dataDir = flags.str('data-dir');
  if (dataDir === '') throw new OptionsError('--data-dir must not be empty');

  const securePort = flags.int('secure-port');
  if (securePort < 0 || securePort > 65535) {
    throw new OptionsError(`--secure-port ${securePort} must be between 0 and 65535, inclusive. 0 picks a free port`);
  }
  const bindAddress = flags.str('bind-address');
  if (isIP(bindAddress) === 0)
    throw new OptionsError(
      `invalid argument ${JSON.stringify(bindAddress)} for "--bind-address" flag: failed to parse IP: ${JSON.stringify(bindAddress)}`,
    );

  const tlsCertFile = flags.optional('tls-cert-file');
  const tlsPrivateKeyFile = flags.optional('tls-private-key-file');
  if ((tlsCertFile === undefined) !== (tlsPrivateKeyFile === undefined)) {
    throw new OptionsError('--tls-cert-file and --tls-private-key-file must be specified together');
  }

  const apiDomain = flags.str('api-domain');
  if (!isDnsSubdomain(apiDomain)) {
    throw new OptionsError(
      `--api-domain ${JSON.stringify(apiDomain)}: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com')`,
    );
  }

  const v = flags.int('v');
  if (v < 0 || v > 10) throw new OptionsError(`--v ${v} must be between 0 and 10, inclusive`);

  return {
    etcdServers,
    etcdPrefix: flags.str('etcd-prefix'),
    etcdCompactionIntervalMs: flags.nonNegative('etcd-compaction-interval', flags.duration('etcd-compaction-interval')),
    storageBackend,
    dataDir,
    securePort,
    bindAddress,
    tlsCertFile,
    tlsPrivateKeyFile,
    certDir: flags.optional('cert-dir') ?? join(dataDir, 'certs'),
    clientCAFile: flags.optional('client-ca-file'),
    tokenAuthFile: flags.optional('token-auth-file'),
    anonymousAuth: flags.bool('anonymous-auth'),
    authorizationModes: parseAuthorizationModes(flags.list('authorization-mode')),
    apiDomain,
    shutdownDelayMs: flags.nonNegative('shutdown-delay-duration', flags.duration('shutdown-delay-duration')),
    livezGracePeriodMs: flags.nonNegative('livez-grace-period', flags.duration('livez-grace-period')),
    maxRequestBytes: flags.nonNegative('max-request-bytes', flags.int('max-request-bytes')),
    minRequestTimeoutSeconds: flags.nonNegative('min-request-timeout', flags.int('min-request-timeout')),
    requestTimeoutMs: flags.nonNegative('request-timeout', flags.duration('request-timeout')),
    logLevel: verbosityToLevel(v),
    serviceClusterIPRanges: parseClusterIPRangeFlag(flags.str('service-cluster-ip-range')),
    serviceNodePortRange: flags.portRange('service-node-port-range'),
    watchCache: flags.bool('watch-cache'),
    defaultWatchCacheSize: flags.nonNegative('default-watch-cache-size', flags.int('default-watch-cache-size')),
  };
}

/** Maps klog verbosity to a winston level: 0-1 info, 2-3 verbose, 4-5 debug, 6+ silly. */
function verbosityToLevel(v: number): string {
  if (v >= 6) return 'silly';
  if (v >= 4) return 'debug';
  if (v >= 2) return 'verbose';
  return 'info';
}

function resolveStorageBackend(value: string, haveEtcd: boolean): ServerOptions['storageBackend'] {
  switch (value) {
    case '':
      return haveEtcd ? 'etcd3' : 'sqlite';
    case 'etcd3':
      if (!haveEtcd) throw new OptionsError('--etcd-servers must be specified when --storage-backend=etcd3');
      return value;
    case 'sqlite':
      if (haveEtcd) throw new OptionsError('--storage-backend=sqlite cannot be used with --etcd-servers');
      return value;
    default:
      throw new OptionsError(
        "--storage-backend invalid, allowed values: etcd3, sqlite. If not specified, it will default to 'etcd3' when --etcd-servers is set, else 'sqlite'",
      );
  }
}

function parseAuthorizationModes(modes: string[]): AuthorizationMode[] {
  if (modes.length === 0) throw new OptionsError('at least one authorization-mode must be passed');
  const seen = new Set<string>();
  for (const mode of modes) {
    if (!(AUTHORIZATION_MODES as readonly string[]).includes(mode))
      throw new OptionsError(`authorization-mode ${JSON.stringify(mode)} is not a valid mode`);
    if (seen.has(mode)) throw new OptionsError(`authorization-mode ${JSON.stringify(mode)} has mode specified more than once`);
    seen.add(mode);
  }
  return modes as AuthorizationMode[];
}

/** --service-cluster-ip-range, checked with kube-apiserver's messages. */
function parseClusterIPRangeFlag(value: string): string[] {
  try {
    return parseServiceClusterIPRanges(value);
  } catch (err) {
    throw new OptionsError((err as Error).message);
  }
}

function isDnsSubdomain(s: string): boolean {
  return s.length <= 253 && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(s);
}

/** Splits argv into flag occurrences (flag name → values in order of appearance). */
function scan(argv: string[]): Map<string, string[]> {
  const seen = new Map<string, string[]>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positional.push(arg);
      continue;
    }
    const long = arg.startsWith('--');
    const body = arg.slice(long ? 2 : 1);
    const eq = body.indexOf('=');
    let name = eq < 0 ? body : body.slice(0, eq);
    let value: string | undefined = eq < 0 ? undefined : body.slice(eq + 1);
    let spec: FlagSpec | undefined;
    if (long) {
      spec = FLAGS.find((f) => f.name === name);
      if (!spec) throw new OptionsError(`unknown flag: --${name}`);
    } else {
      spec = FLAGS.find((f) => f.shorthand === name[0]);
      if (!spec) throw new OptionsError(`unknown shorthand flag: ${JSON.stringify(name[0]).replaceAll('"', "'")} in ${arg}`);
      if (value === undefined && name.length > 1) value = name.slice(1); // -v4
      name = spec.name;
    }
    if (value === undefined) {
      if (spec.kind === 'bool') value = 'true';
      else if (i + 1 < argv.length) value = argv[++i];
      else throw new OptionsError(`flag needs an argument: ${long ? '--' : '-'}${long ? name : spec.shorthand}`);
    }
    seen.set(spec.name, [...(seen.get(spec.name) ?? []), value]);
  }
  if (positional.length > 0) {
    throw new OptionsError(`"orch-apiserver" does not take any arguments, got ${JSON.stringify(positional)}`);
  }
  return seen;
}

/** Typed access to scanned flags, falling back to each flag's default. */
class FlagValues {
  constructor(private readonly seen: Map<string, string[]>) {}

  private raw(name: string): string {
    const values = this.seen.get(name);
    return values ? values[values.length - 1] : spec(name).def;
  }

  private invalid(name: string, value: string, why: string): OptionsError {
    return new OptionsError(`invalid argument ${JSON.stringify(value)} for "--${name}" flag: ${why}`);
  }

  str(name: string): string {
    return this.raw(name);
  }

  /** The value, or undefined when the flag was not given or given empty. */
  optional(name: string): string | undefined {
    const v = this.raw(name);
    return v === '' ? undefined : v;
  }

  /** A comma list; repeated flags accumulate (pflag StringSlice). */
  list(name: string): string[] {
    const values = this.seen.get(name) ?? [spec(name).def];
    return values
      .flatMap((v) => v.split(','))
      .map((s) => s.trim())
      .filter((s) => s !== '');
  }

  bool(name: string): boolean {
    const v = this.raw(name);
    if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(v)) return true;
    if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(v)) return false;
    throw this.invalid(name, v, `strconv.ParseBool: parsing ${JSON.stringify(v)}: invalid syntax`);
  }

  int(name: string): number {
    const v = this.raw(name);
    if (!/^[+-]?\d+$/.test(v) || !Number.isSafeInteger(Number(v))) {
      throw this.invalid(name, v, `strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`);
    }
    return Number(v);
  }

  /** A Go duration, in milliseconds. */
  duration(name: string): number {
    const v = this.raw(name);
    try {
      return parseGoDuration(v);
    } catch (err) {
      throw this.invalid(name, v, (err as Error).message);
    }
  }

  /** A port range ("30000-32767", "30000+2767", "30000"); empty means the default. */
  portRange(name: string): PortRange {
    const v = this.raw(name);
    try {
      return parsePortRange(v.trim() === '' ? spec(name).def : v);
    } catch (err) {
      throw this.invalid(name, v, (err as Error).message);
    }
  }

  nonNegative(name: string, n: number): number {
    if (n < 0) throw new OptionsError(`--${name} can not be negative value`);
    return n;
  }
}

function spec(name: string): FlagSpec {
  const s = FLAGS.find((f) => f.name === name);
  if (!s) throw new Error(`no flag ${name}`);
  return s;
}

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, μs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Parses a Go duration ("300ms", "-1.5h", "2h45m", "0") into milliseconds, failing with Go's
 * time.ParseDuration messages.
 */
export function parseGoDuration(input: string): number {
  const invalid = () => new Error(`time: invalid duration ${JSON.stringify(input)}`);
  let s = input;
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    if (s[0] === '-') sign = -1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') throw invalid();
  let total = 0;
  while (s !== '') {
    const m = /^(\d*)(?:\.(\d*))?/.exec(s)!;
    const [whole, int = '', frac] = m;
    if (int === '' && (frac === undefined || frac === '')) throw invalid();
    s = s.slice(whole.length);
    const unit = /^[^\d.]*/.exec(s)![0];
    if (unit === '') throw new Error(`time: missing unit in duration ${JSON.stringify(input)}`);
    const ms = UNIT_MS[unit];
    if (ms === undefined) throw new Error(`time: unknown unit ${JSON.stringify(unit)} in duration ${JSON.stringify(input)}`);
    s = s.slice(unit.length);
    total += Number(`${int || '0'}.${frac ?? '0'}`) * ms;
  }
  if (total > 9.223372036854775e12) throw invalid(); // beyond Go's int64 nanoseconds
  return sign * total;
}
