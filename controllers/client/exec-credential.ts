/**
 * Exec credential plugins (client-go's exec authenticator): run the kubeconfig's command, read an
 * ExecCredential (client.authentication.k8s.io or .<domain>, /v1 or /v1beta1: the kubeconfig's) from its stdout, and use its token or
 * client certificate until expirationTimestamp passes or the server answers 401 to it.
 *
 * The plugin gets the kubeconfig's env on top of this process's environment, plus <PREFIX>_EXEC_INFO
 * (ORCH_EXEC_INFO; KUBERNETES_EXEC_INFO for the k8s.io domain): an ExecCredential whose spec says
 * whether it may talk to the user (interactive) and, with provideClusterInfo, describes the cluster.
 */
import { spawn } from 'node:child_process';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import type { ApiDomain } from '../../apiserver/api/domain.js';
import { isPlainObject } from '../../apiserver/api/object.js';
import type { ClusterInfo, ExecConfig } from './kubeconfig.js';
import { messageOf } from '../../apiserver/api/thrown.js';

/** What a plugin run yields: a bearer token and/or a client certificate with its key. */
export interface ExecCredentials {
  token?: string;
  certPem?: string;
  keyPem?: string;
}

export interface ExecPluginOptions {
  domain: ApiDomain;
  /** Whether this process's stdin is a terminal (interactive modes); process.stdin.isTTY by default. */
  stdinIsTerminal?: boolean;
  now?: () => number;
}

/** The environment variable carrying the ExecCredential input. */
export function execInfoVariable(domain: ApiDomain): string {
  return `${domain.labelPrefix.split('.')[0].toUpperCase()}_EXEC_INFO`;
}

/** Runs one exec stanza's plugin and caches what it returns. */
export class ExecCredentialPlugin {
  private cached?: ExecCredentials;
  private expiresAt?: number;
  private running?: Promise<ExecCredentials>;
  private readonly now: () => number;

  constructor(
    private readonly exec: ExecConfig,
    private readonly cluster: ClusterInfo,
    private readonly opts: ExecPluginOptions,
  ) {
    this.now = opts.now ?? Date.now;
  }

  /** Cached credentials, or a fresh run when there are none or they have expired. */
  credentials(): Promise<ExecCredentials> {
    if (this.cached && (this.expiresAt === undefined || this.now() < this.expiresAt)) return Promise.resolve(this.cached);
    return this.refresh();
  }

  /**
   * After a 401 to `used`: runs the plugin again unless the credentials were replaced meanwhile.
   * Resolves with the credentials to retry with.
   */
  unauthorized(used: ExecCredentials): Promise<ExecCredentials> {
    if (this.cached !== used) return this.credentials();
    this.cached = undefined;
    return this.refresh();
  }

  private refresh(): Promise<ExecCredentials> {
    this.running ??= this.run().finally(() => (this.running = undefined));
    return this.running;
  }

  private interactive(): boolean {
    const terminal = this.opts.stdinIsTerminal ?? process.stdin.isTTY === true;
    switch (this.exec.interactiveMode) {
      case 'Never':
        return false;
      case 'Always':
        if (!terminal) throw new Error('exec plugin cannot support interactive mode: standard input is not a terminal');
        return true;
      default:
        return terminal;
    }
  }

  /** The ExecCredential the plugin receives in the exec-info variable. */
  input(interactive: boolean): Record<string, unknown> {
    const spec: Record<string, unknown> = {};
    if (this.exec.provideClusterInfo) {
      const c = this.cluster;
      const cluster: Record<string, unknown> = { server: c.server };
      if (c.tlsServerName) cluster['tls-server-name'] = c.tlsServerName;
      if (c.insecureSkipTlsVerify) cluster['insecure-skip-tls-verify'] = true;
      if (c.caPem) cluster['certificate-authority-data'] = Buffer.from(c.caPem).toString('base64');
      if (c.proxyUrl) cluster['proxy-url'] = c.proxyUrl;
      if (c.disableCompression) cluster['disable-compression'] = true;
      if (c.execExtension !== undefined) cluster.config = c.execExtension;
      spec.cluster = cluster;
    }
    spec.interactive = interactive;
    return { kind: 'ExecCredential', apiVersion: this.exec.apiVersion, spec };
  }

  private async run(): Promise<ExecCredentials> {
    const interactive = this.interactive();
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const e of this.exec.env) env[e.name] = e.value;
    env[execInfoVariable(this.opts.domain)] = JSON.stringify(this.input(interactive));
    const stdout = await this.spawn(env, interactive);
    const creds = this.decode(stdout);
    this.cached = creds;
    return creds;
  }

  private spawn(env: NodeJS.ProcessEnv, interactive: boolean): Promise<string> {
    const cmd = this.exec.command;
    return new Promise((resolve, reject) => {
      const child = spawn(cmd, this.exec.args, { env, stdio: [interactive ? 'inherit' : 'ignore', 'pipe', 'inherit'] });
      const chunks: Buffer[] = [];
      child.stdout!.on('data', (c: Buffer) => chunks.push(c));
      child.on('error', (err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT' && err.code !== 'EACCES') return reject(new Error(`exec: ${err.message}`));
        let message = `exec: executable ${cmd} not found\n\nThe credential plugin this kubeconfig names is not installed.`;
        if (this.exec.installHint) message += `\n\n${this.exec.installHint}`;
        reject(new Error(message));
      });
      child.on('close', (code, signal) => {
        if (code === 0) resolve(Buffer.concat(chunks).toString('utf8'));
        else if (code !== null) reject(new Error(`exec: executable ${cmd} failed with exit code ${code}`));
        else if (signal) reject(new Error(`exec: executable ${cmd} was killed by ${signal}`));
      });
    });
  }

  /** Checks the plugin's output the way client-go does and takes its status. */
  private decode(stdout: string): ExecCredentials {
    let out: unknown;
    try {
      out = JSON.parse(stdout);
    } catch (err) {
      throw new Error(`decoding stdout: ${messageOf(err)}`);
    }
    if (!isPlainObject(out)) throw new Error('decoding stdout: not a JSON object');
    if (out.apiVersion !== this.exec.apiVersion) {
      throw new Error(
        `exec plugin is configured to use API version ${this.exec.apiVersion}, plugin returned version ${String(out.apiVersion ?? '')}`,
      );
    }
    const status = out.status;
    if (!isPlainObject(status)) throw new Error("exec plugin didn't return a status field");
    const token = typeof status.token === 'string' ? status.token : '';
    const certPem = typeof status.clientCertificateData === 'string' ? status.clientCertificateData : '';
    const keyPem = typeof status.clientKeyData === 'string' ? status.clientKeyData : '';
    if (!token && !certPem && !keyPem) throw new Error("exec plugin didn't return a token or cert/key pair");
    if (!certPem !== !keyPem) throw new Error('exec plugin returned only certificate or key, not both');
    if (certPem) {
      try {
        if (!new X509Certificate(certPem).checkPrivateKey(createPrivateKey(keyPem)))
          throw new Error('private key does not match public key');
      } catch (err) {
        throw new Error(`failed parsing client key/certificate: ${messageOf(err)}`);
      }
    }
    const expiry = typeof status.expirationTimestamp === 'string' ? Date.parse(status.expirationTimestamp) : NaN;
    this.expiresAt = Number.isNaN(expiry) ? undefined : expiry;
    const creds: ExecCredentials = {};
    if (token) creds.token = token;
    if (certPem) Object.assign(creds, { certPem, keyPem });
    return creds;
  }
}
