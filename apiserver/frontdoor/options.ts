/**
 * orch-proxy's flag table: each flag declared once (the serving ones shared with the other binaries),
 * added to a component-base flag set, validated and completed into ProxyOptions.
 */
import { Command, type ComponentOptions } from '../component-base/cli/command.js';
import { FeatureGateOptions, type FeatureGates } from '../component-base/featuregate/orch-features.js';
import { checkPort } from '../component-base/flag/checks.js';
import type { FlagSet } from '../component-base/flag/flag-set.js';
import { checkFlags, flag, flagValues } from '../component-base/flag/flag-table.js';
import { durationValue, intValue, ipValue, stringsValue, stringValue } from '../component-base/flag/values.js';
import { securePortFlags, tlsFileFlags } from '../component-base/serving/serving-flags.js';
import { OptionsError } from '../component-base/flag/options-error.js';
import { LogOptions } from '../component-base/logs/log-options.js';

/** What orch-proxy runs with: its flags, validated and completed. */
export interface ProxyOptions {
  securePort: number;
  bindAddress: string;
  tlsCertFile: string;
  tlsPrivateKeyFile: string;
  /** Client certificates that chain to these CAs are authenticated and their identity forwarded. */
  clientCAFile: string;
  /** The proxy's own client certificate: replicas believe identity headers only over it. */
  proxyClientCertFile: string;
  proxyClientKeyFile: string;
  /** Verifies the replicas' serving certificates. */
  backendCAFile: string;
  /** The replicas' base URLs, e.g. https://127.0.0.1:6444. */
  backends: string[];
  usernameHeader: string;
  groupHeader: string;
  extraHeaderPrefix: string;
  healthCheckIntervalMs: number;
  healthCheckTimeoutMs: number;
  /** How many replicas one request may be tried on (the first try included). */
  maxAttempts: number;
  maxRequestBytes: number;
  /** On SIGTERM, how long in-flight requests (watches included) may finish before they are cut. */
  shutdownTimeoutMs: number;
  /** Plain-HTTP port of /metrics, /healthz and /readyz (the proxy's own); 0 = not served. */
  metricsPort: number;
  metricsBindAddress: string;
  logLevel: string;
  /** --feature-gates: the one gate set every orch binary accepts. */
  featureGates: FeatureGates;
  /** Warnings about the gates set (GA or deprecated ones), logged at start. */
  featureGateWarnings: string[];
}

/** orch-proxy's serving flags, declared with every binary's. */
export const PROXY_SERVING_FLAGS = {
  ...securePortFlags(6443, 'to clients'),
  ...tlsFileFlags(
    { usage: 'File containing the serving certificate shown to clients (required).' },
    { usage: 'File containing the private key of --tls-cert-file (required).' },
  ),
};

/** orch-proxy's own flags, each declared once. */
export const PROXY_FLAGS = {
  clientCAFile: flag({
    name: 'client-ca-file',
    type: stringValue,
    default: '',
    usage:
      'Client certificates that chain to a CA in this file are authenticated (user = CN, groups = O) and their identity forwarded in request headers; others are refused with 401. Without it, client certificates are not requested.',
  }),
  proxyClientCertFile: flag({
    name: 'proxy-client-cert-file',
    type: stringValue,
    default: '',
    usage:
      "The proxy's own client certificate, presented to the replicas when it forwards an identity (their --requestheader-client-ca-file must trust it).",
  }),
  proxyClientKeyFile: flag({
    name: 'proxy-client-key-file',
    type: stringValue,
    default: '',
    usage: 'The private key of --proxy-client-cert-file.',
  }),
  backendCAFile: flag({
    name: 'backend-ca-file',
    type: stringValue,
    default: '',
    usage: "CA bundle verifying the replicas' serving certificates (required).",
    check: required,
  }),
  backends: flag({
    name: 'backends',
    type: stringsValue,
    default: [],
    usage: 'The replicas, as comma-separated https URLs (required).',
    check: backendURLs,
  }),
  usernameHeader: flag({
    name: 'requestheader-username-header',
    type: stringValue,
    default: 'X-Remote-User',
    usage: 'The header naming the forwarded user.',
    check: notEmpty,
  }),
  groupHeader: flag({
    name: 'requestheader-group-header',
    type: stringValue,
    default: 'X-Remote-Group',
    usage: 'The header naming a forwarded group (one header per group).',
    check: notEmpty,
  }),
  extraHeaderPrefix: flag({
    name: 'requestheader-extra-headers-prefix',
    type: stringValue,
    default: 'X-Remote-Extra-',
    usage: 'The prefix of headers carrying forwarded extra values.',
    check: notEmpty,
  }),
  healthCheckIntervalMs: flag({
    name: 'health-check-interval',
    type: durationValue,
    default: 1000,
    usage: "How often each replica's /readyz is checked.",
    check: positive,
  }),
  healthCheckTimeoutMs: flag({
    name: 'health-check-timeout',
    type: durationValue,
    default: 1000,
    usage: 'How long a /readyz check may take before it counts as failed.',
    check: positive,
  }),
  maxAttempts: flag({
    name: 'max-attempts',
    type: intValue,
    default: 3,
    usage:
      'On how many replicas a request is tried: again on another when the first failed before any byte of an answer (reads), or before any byte of the request was sent (any request).',
    check: atLeastOneAttempt,
  }),
  maxRequestBytes: flag({
    name: 'max-request-bytes',
    type: intValue,
    default: 3 * 1024 * 1024,
    usage: 'Largest request body accepted (it is held so that the request can be retried).',
    check: positiveBytes,
  }),
  shutdownTimeoutMs: flag({
    name: 'shutdown-timeout',
    type: durationValue,
    default: 60_000,
    usage: 'On SIGTERM, how long in-flight requests, watches included, may finish before they are cut.',
    check: notNegative,
  }),
  metricsPort: flag({
    name: 'metrics-port',
    type: intValue,
    default: 0,
    usage: "Plain-HTTP port of the proxy's own /metrics, /healthz and /readyz; 0 does not serve them.",
    check: (value, name) => checkPort(name, value),
  }),
  metricsBindAddress: flag({
    name: 'metrics-bind-address',
    type: ipValue,
    default: '127.0.0.1',
    usage: 'The IP address on which to listen for the --metrics-port port.',
  }),
};

export class ProxyFlags implements ComponentOptions<ProxyOptions> {
  readonly values = flagValues({ ...PROXY_SERVING_FLAGS, ...PROXY_FLAGS });
  readonly logs = new LogOptions();
  readonly features = new FeatureGateOptions();

  addFlags(fs: FlagSet): void {
    fs.table(PROXY_SERVING_FLAGS, this.values);
    fs.table(PROXY_FLAGS, this.values);
    this.logs.addFlags(fs);
    this.features.addFlags(fs);
  }

  validate(): void {
    const v = this.values;
    checkFlags(PROXY_SERVING_FLAGS, v);
    if (!v.tlsCertFile || !v.tlsPrivateKeyFile) throw new OptionsError('--tls-cert-file and --tls-private-key-file are required');
    checkFlags(PROXY_FLAGS, v);
    if (Boolean(v.proxyClientCertFile) !== Boolean(v.proxyClientKeyFile)) {
      throw new OptionsError('--proxy-client-cert-file and --proxy-client-key-file must be given together');
    }
    if (v.clientCAFile && !v.proxyClientCertFile) {
      throw new OptionsError('--client-ca-file needs --proxy-client-cert-file: identities are forwarded over the proxy client certificate');
    }
    this.logs.validate();
  }

  /** The table's values are the options of the same names; the backends become origins. */
  complete(): ProxyOptions {
    const v = this.values;
    return {
      ...v,
      backends: v.backends.map((b) => new URL(b).origin),
      logLevel: this.logs.level(),
      featureGates: this.features.gates,
      featureGateWarnings: this.features.gates.warnings,
    };
  }
}

export const proxyCommand = new Command<ProxyOptions>({
  name: 'orch-proxy',
  about:
    'orch-proxy is the front door of a highly available orch cluster: it terminates TLS, authenticates client certificates and forwards their identity to the API server replicas in request headers, passes bearer tokens through, and balances over the replicas that answer /readyz.',
  newOptions: () => new ProxyFlags(),
});

// The checks of one flag's value; `name` is the flag's.

function required(value: string, name: string): void {
  if (!value) throw new OptionsError(`--${name} is required`);
}

function notEmpty(value: string, name: string): void {
  if (!value) throw new OptionsError(`--${name} must not be empty`);
}

function positive(n: number, name: string): void {
  if (n <= 0) throw new OptionsError(`--${name} must be positive`);
}

function notNegative(n: number, name: string): void {
  if (n < 0) throw new OptionsError(`--${name} must not be negative`);
}

function atLeastOneAttempt(n: number, name: string): void {
  if (n < 1) throw new OptionsError(`--${name} ${n} must be at least 1`);
}

function positiveBytes(n: number, name: string): void {
  if (n < 1) throw new OptionsError(`--${name} ${n} must be positive`);
}

function backendURLs(backends: string[], name: string): void {
  if (backends.length === 0) throw new OptionsError(`--${name} is required`);
  for (const backend of backends) {
    let url: URL;
    try {
      url = new URL(backend);
    } catch {
      throw new OptionsError(`--${name}: ${JSON.stringify(backend)} is not a URL`);
    }
    if (url.protocol !== 'https:' || url.pathname !== '/' || url.search) {
      throw new OptionsError(`--${name}: ${JSON.stringify(backend)} must be https://host:port`);
    }
  }
}
