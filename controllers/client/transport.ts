/**
 * The connection side of the client: TLS (CA, server name, insecure skip verify, client certificate),
 * keep-alive connections, and authentication (bearer token, token file, client certificate or an exec
 * plugin). An exec plugin's credentials are refreshed after a 401 and the request is sent once more;
 * a new client certificate from the plugin closes every connection, so the next ones use it.
 */
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { readFileSync } from 'node:fs';
import type { ApiDomain } from '../../apiserver/api/domain.js';
import { newApiDomain } from '../../apiserver/api/domain.js';
import type { RestConfig } from './kubeconfig.js';
import { ExecCredentialPlugin, type ExecCredentials } from './exec-credential.js';

export interface TransportOptions {
  domain?: ApiDomain;
  userAgent?: string;
  /** Whether stdin is a terminal, for interactive exec plugins (tests). */
  stdinIsTerminal?: boolean;
}

export interface SendOptions {
  body?: string | Buffer;
  headers?: OutgoingHttpHeaders;
  /** Abort (and fail) the request, e.g. to stop a watch. */
  signal?: AbortSignal;
  /** No response headers within this long aborts the request. */
  timeoutMs?: number;
}

/** A token file is read again after this long (client-go's cachingTokenSource period). */
const TOKEN_FILE_TTL_MS = 60_000;

export class Transport {
  readonly config: RestConfig;
  private readonly base: URL;
  private agent: HttpsAgent | HttpAgent;
  private agentCert?: string;
  private readonly exec?: ExecCredentialPlugin;
  private fileToken?: { value: string; readAt: number };
  private readonly userAgent: string;

  constructor(config: RestConfig, opts: TransportOptions = {}) {
    this.config = config;
    this.base = new URL(config.server);
    this.userAgent = opts.userAgent ?? 'orch-client';
    if (config.exec) {
      this.exec = new ExecCredentialPlugin(config.exec, config.cluster, {
        domain: opts.domain ?? newApiDomain(),
        stdinIsTerminal: opts.stdinIsTerminal,
      });
    }
    this.agent = this.newAgent(config.certPem, config.keyPem);
    this.agentCert = config.certPem;
  }

  private newAgent(certPem?: string, keyPem?: string): HttpsAgent | HttpAgent {
    if (this.base.protocol === 'http:') return new HttpAgent({ keepAlive: true, maxSockets: 100 });
    return new HttpsAgent({
      keepAlive: true,
      maxSockets: 100,
      ca: this.config.cluster.caPem,
      rejectUnauthorized: !this.config.cluster.insecureSkipTlsVerify,
      servername: this.config.cluster.tlsServerName,
      cert: certPem,
      key: keyPem,
    });
  }

  /** Uses the exec plugin's certificate; a changed one replaces the agent and drops every connection. */
  private useCertificate(creds: ExecCredentials): void {
    if (!creds.certPem || creds.certPem === this.agentCert) return;
    const old = this.agent;
    this.agent = this.newAgent(creds.certPem, creds.keyPem);
    this.agentCert = creds.certPem;
    old.destroy();
  }

  private bearerToken(creds: ExecCredentials | undefined): string | undefined {
    if (creds?.token) return creds.token;
    if (this.config.token) return this.config.token;
    if (!this.config.tokenFile) return undefined;
    const now = Date.now();
    if (!this.fileToken || now - this.fileToken.readAt > TOKEN_FILE_TTL_MS) {
      this.fileToken = { value: readFileSync(this.config.tokenFile, 'utf8').trim(), readAt: now };
    }
    return this.fileToken.value;
  }

  /**
   * Sends one request (path includes the query) and resolves with the response once its headers
   * arrive; the caller reads or discards the body.
   */
  async send(method: string, path: string, opts: SendOptions = {}): Promise<IncomingMessage> {
    let creds = this.exec ? await this.exec.credentials() : undefined;
    if (creds) this.useCertificate(creds);
    const res = await this.sendOnce(method, path, opts, creds);
    if (res.statusCode !== 401 || !this.exec || !creds) return res;
    res.resume();
    creds = await this.exec.unauthorized(creds);
    this.useCertificate(creds);
    return this.sendOnce(method, path, opts, creds);
  }

  private sendOnce(method: string, path: string, opts: SendOptions, creds: ExecCredentials | undefined): Promise<IncomingMessage> {
    const url = new URL(path, this.base);
    const headers: OutgoingHttpHeaders = { 'User-Agent': this.userAgent, Accept: 'application/json', ...opts.headers };
    const token = this.bearerToken(creds);
    if (token) headers.Authorization = `Bearer ${token}`;
    if (opts.body !== undefined) headers['Content-Length'] = Buffer.byteLength(opts.body);
    const request = url.protocol === 'http:' ? httpRequest : httpsRequest;
    return new Promise((resolve, reject) => {
      const req = request(url, { method, headers, agent: this.agent, signal: opts.signal }, resolve);
      req.on('error', reject);
      if (opts.timeoutMs) {
        req.setTimeout(opts.timeoutMs, () => req.destroy(new Error(`${method} ${url.pathname}: no response within ${opts.timeoutMs}ms`)));
      }
      req.end(opts.body);
    });
  }

  /** Closes every connection. */
  close(): void {
    this.agent.destroy();
  }
}
