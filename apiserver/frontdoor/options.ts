/**
 * orch-proxy's flag table: one field per flag, added to a component-base flag set, validated and
 * completed into ProxyOptions.
 */
import { Command, type ComponentOptions } from '../component-base/cli/command.js';
import { FeatureGateOptions, type FeatureGates } from '../component-base/featuregate/orch-features.js';
import { checkPort } from '../component-base/flag/checks.js';
import type { FlagSet } from '../component-base/flag/flag-set.js';
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

export class ProxyFlags implements ComponentOptions<ProxyOptions> {
  securePort = 6443;
  bindAddress = '0.0.0.0';
  tlsCertFile = '';
  tlsPrivateKeyFile = '';
  clientCAFile = '';
  proxyClientCertFile = '';
  proxyClientKeyFile = '';
  backendCAFile = '';
  backends: string[] = [];
  usernameHeader = 'X-Remote-User';
  groupHeader = 'X-Remote-Group';
  extraHeaderPrefix = 'X-Remote-Extra-';
  healthCheckIntervalMs = 1000;
  healthCheckTimeoutMs = 1000;
  maxAttempts = 3;
  maxRequestBytes = 3 * 1024 * 1024;
  shutdownTimeoutMs = 60_000;
  metricsPort = 0;
  metricsBindAddress = '127.0.0.1';
  readonly logs = new LogOptions();
  readonly features = new FeatureGateOptions();

  addFlags(fs: FlagSet): void {
    fs.int(this, 'securePort', 'secure-port', 'The port on which to serve HTTPS to clients. 0 picks a free port.');
    fs.ip(this, 'bindAddress', 'bind-address', 'The IP address on which to listen for the --secure-port port.');
    fs.string(this, 'tlsCertFile', 'tls-cert-file', 'File containing the serving certificate shown to clients (required).');
    fs.string(this, 'tlsPrivateKeyFile', 'tls-private-key-file', 'File containing the private key of --tls-cert-file (required).');
    fs.string(
      this,
      'clientCAFile',
      'client-ca-file',
      'Client certificates that chain to a CA in this file are authenticated (user = CN, groups = O) and their identity forwarded in request headers; others are refused with 401. Without it, client certificates are not requested.',
    );
    fs.string(
      this,
      'proxyClientCertFile',
      'proxy-client-cert-file',
      "The proxy's own client certificate, presented to the replicas when it forwards an identity (their --requestheader-client-ca-file must trust it).",
    );
    fs.string(this, 'proxyClientKeyFile', 'proxy-client-key-file', 'The private key of --proxy-client-cert-file.');
    fs.string(this, 'backendCAFile', 'backend-ca-file', "CA bundle verifying the replicas' serving certificates (required).");
    fs.strings(this, 'backends', 'backends', 'The replicas, as comma-separated https URLs (required).');
    fs.string(this, 'usernameHeader', 'requestheader-username-header', 'The header naming the forwarded user.');
    fs.string(this, 'groupHeader', 'requestheader-group-header', 'The header naming a forwarded group (one header per group).');
    fs.string(this, 'extraHeaderPrefix', 'requestheader-extra-headers-prefix', 'The prefix of headers carrying forwarded extra values.');
    fs.duration(this, 'healthCheckIntervalMs', 'health-check-interval', "How often each replica's /readyz is checked.");
    fs.duration(this, 'healthCheckTimeoutMs', 'health-check-timeout', 'How long a /readyz check may take before it counts as failed.');
    fs.int(
      this,
      'maxAttempts',
      'max-attempts',
      'On how many replicas a request is tried: again on another when the first failed before any byte of an answer (reads), or before any byte of the request was sent (any request).',
    );
    fs.int(this, 'maxRequestBytes', 'max-request-bytes', 'Largest request body accepted (it is held so that the request can be retried).');
    fs.duration(
      this,
      'shutdownTimeoutMs',
      'shutdown-timeout',
      'On SIGTERM, how long in-flight requests, watches included, may finish before they are cut.',
    );
    fs.int(
      this,
      'metricsPort',
      'metrics-port',
      "Plain-HTTP port of the proxy's own /metrics, /healthz and /readyz; 0 does not serve them.",
    );
    fs.ip(this, 'metricsBindAddress', 'metrics-bind-address', 'The IP address on which to listen for the --metrics-port port.');
    this.logs.addFlags(fs);
    this.features.addFlags(fs);
  }

  validate(): void {
    checkPort('secure-port', this.securePort);
    checkPort('metrics-port', this.metricsPort);
    if (!this.tlsCertFile || !this.tlsPrivateKeyFile) throw new OptionsError('--tls-cert-file and --tls-private-key-file are required');
    if (!this.backendCAFile) throw new OptionsError('--backend-ca-file is required');
    if (this.backends.length === 0) throw new OptionsError('--backends is required');
    for (const backend of this.backends) {
      let url: URL;
      try {
        url = new URL(backend);
      } catch {
        throw new OptionsError(`--backends: ${JSON.stringify(backend)} is not a URL`);
      }
      if (url.protocol !== 'https:' || url.pathname !== '/' || url.search) {
        throw new OptionsError(`--backends: ${JSON.stringify(backend)} must be https://host:port`);
      }
    }
    if (Boolean(this.proxyClientCertFile) !== Boolean(this.proxyClientKeyFile)) {
      throw new OptionsError('--proxy-client-cert-file and --proxy-client-key-file must be given together');
    }
    if (this.clientCAFile && !this.proxyClientCertFile) {
      throw new OptionsError('--client-ca-file needs --proxy-client-cert-file: identities are forwarded over the proxy client certificate');
    }
    if (this.maxAttempts < 1) throw new OptionsError(`--max-attempts ${this.maxAttempts} must be at least 1`);
    if (this.maxRequestBytes < 1) throw new OptionsError(`--max-request-bytes ${this.maxRequestBytes} must be positive`);
    if (this.healthCheckIntervalMs <= 0) throw new OptionsError('--health-check-interval must be positive');
    if (this.healthCheckTimeoutMs <= 0) throw new OptionsError('--health-check-timeout must be positive');
    if (this.shutdownTimeoutMs < 0) throw new OptionsError('--shutdown-timeout must not be negative');
    for (const [name, value] of [
      ['requestheader-username-header', this.usernameHeader],
      ['requestheader-group-header', this.groupHeader],
      ['requestheader-extra-headers-prefix', this.extraHeaderPrefix],
    ]) {
      if (!value) throw new OptionsError(`--${name} must not be empty`);
    }
    this.logs.validate();
  }

  complete(): ProxyOptions {
    return {
      securePort: this.securePort,
      bindAddress: this.bindAddress,
      tlsCertFile: this.tlsCertFile,
      tlsPrivateKeyFile: this.tlsPrivateKeyFile,
      clientCAFile: this.clientCAFile,
      proxyClientCertFile: this.proxyClientCertFile,
      proxyClientKeyFile: this.proxyClientKeyFile,
      backendCAFile: this.backendCAFile,
      backends: this.backends.map((b) => new URL(b).origin),
      usernameHeader: this.usernameHeader,
      groupHeader: this.groupHeader,
      extraHeaderPrefix: this.extraHeaderPrefix,
      healthCheckIntervalMs: this.healthCheckIntervalMs,
      healthCheckTimeoutMs: this.healthCheckTimeoutMs,
      maxAttempts: this.maxAttempts,
      maxRequestBytes: this.maxRequestBytes,
      shutdownTimeoutMs: this.shutdownTimeoutMs,
      metricsPort: this.metricsPort,
      metricsBindAddress: this.metricsBindAddress,
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
