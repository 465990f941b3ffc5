/**
 * kubeconfig files, as clientcmd reads them: the current (or a named) context picks a cluster (server,
 * CA data or file, insecure-skip-tls-verify, tls-server-name), a user (token or token file, client
 * certificate and key as data or files, or an exec credential plugin) and a namespace. Relative file
 * paths, and exec commands that contain a '/', are resolved against the kubeconfig's folder.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse } from 'yaml';
import { configTypeProblem, isAcceptedApiVersion, versionOf } from '../../apiserver/api/config-versions.js';
import { isPlainObject } from '../../apiserver/api/object.js';
import type { ApiDomain } from '../../apiserver/api/domain.js';
import { newApiDomain } from '../../apiserver/api/domain.js';
import { messageOf } from '../../apiserver/api/thrown.js';

export type InteractiveMode = 'Never' | 'IfAvailable' | 'Always';
const INTERACTIVE_MODES: readonly InteractiveMode[] = ['Never', 'IfAvailable', 'Always'];

function isInteractiveMode(mode: string): mode is InteractiveMode {
  return INTERACTIVE_MODES.some((m) => m === mode);
}

/** users[].user.exec: a command that prints an ExecCredential. */
export interface ExecConfig {
  /** client.authentication.<domain>/v1 or /v1beta1. */
  apiVersion: string;
  /** Resolved against the kubeconfig's folder when it contains a '/'; else looked up in PATH. */
  command: string;
  args: string[];
  env: { name: string; value: string }[];
  /** Required in v1; v1beta1 defaults it to IfAvailable. */
  interactiveMode: InteractiveMode;
  /** Pass the cluster (ClusterInfo) to the plugin in the exec-info environment variable. */
  provideClusterInfo: boolean;
  /** Shown when the command is not installed. */
  installHint?: string;
}

/** The cluster as an exec plugin sees it (ExecCredential spec.cluster). */
export interface ClusterInfo {
  server: string;
  tlsServerName?: string;
  insecureSkipTlsVerify: boolean;
  caPem?: string;
  proxyUrl?: string;
  disableCompression: boolean;
  /** The cluster's `client.authentication.<domain>/exec` extension, passed on as spec.cluster.config. */
  execExtension?: unknown;
}

/** Everything needed to talk to one API server as one user. */
export interface RestConfig {
  server: string;
  cluster: ClusterInfo;
  /** Static bearer token (users[].user.token). */
  token?: string;
  /** A file re-read for the bearer token (users[].user.tokenFile). */
  tokenFile?: string;
  certPem?: string;
  keyPem?: string;
  exec?: ExecConfig;
  /** The context's namespace, "default" when unset. */
  namespace: string;
}

export interface KubeconfigOptions {
  /** A context other than current-context. */
  context?: string;
  /** The API domain (names the ExecCredential group); orch.io by default. */
  domain?: ApiDomain;
}

/** A kubeconfig that cannot be used; the message says why, as clientcmd words it. */
export class KubeconfigError extends Error {
  override name = 'KubeconfigError';
}

type Named = { name: string; [section: string]: unknown };

/** Reads and resolves a kubeconfig file. */
export function loadKubeconfig(file: string, opts: KubeconfigOptions = {}): RestConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new KubeconfigError(`unable to read kubeconfig ${file}: ${messageOf(err)}`);
  }
  return parseKubeconfig(text, dirname(resolve(file)), opts);
}

/** Resolves kubeconfig text; relative paths are taken from `baseDir`. */
export function parseKubeconfig(text: string, baseDir: string, opts: KubeconfigOptions = {}): RestConfig {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (err) {
    throw new KubeconfigError(`error loading config: ${messageOf(err)}`);
  }
  if (!isPlainObject(doc)) throw new KubeconfigError('invalid configuration: no configuration has been provided');
  const domain = opts.domain ?? newApiDomain();
  const wrongType = configTypeProblem('Kubeconfig', doc, domain, { allowUntyped: true });
  if (wrongType) throw new KubeconfigError(`error loading config: ${wrongType}`);
  const contextName = opts.context ?? str(doc['current-context']);
  if (!contextName) throw new KubeconfigError('invalid configuration: no configuration has been provided');
  const context = section(find(doc.contexts, contextName), 'context');
  if (!context) throw new KubeconfigError(`context was not found for specified context: ${contextName}`);
  const clusterName = str(context.cluster);
  const userName = str(context.user);
  const cluster = section(find(doc.clusters, clusterName), 'cluster');
  if (!cluster) throw new KubeconfigError(`invalid configuration: cluster ${JSON.stringify(clusterName)} not found`);
  const user = section(find(doc.users, userName), 'user') ?? {};
  const path = (p: string) => (isAbsolute(p) ? p : resolve(baseDir, p));

  const server = str(cluster.server);
  if (!server) throw new KubeconfigError('invalid configuration: cluster has no server defined');
  const info: ClusterInfo = {
    server,
    tlsServerName: str(cluster['tls-server-name']) || undefined,
    insecureSkipTlsVerify: cluster['insecure-skip-tls-verify'] === true,
    caPem: dataOrFile(cluster['certificate-authority-data'], cluster['certificate-authority'], path),
    proxyUrl: str(cluster['proxy-url']) || undefined,
    disableCompression: cluster['disable-compression'] === true,
    execExtension: execExtension(cluster.extensions, domain),
  };
  const config: RestConfig = {
    server,
    cluster: info,
    token: str(user.token) || undefined,
    tokenFile: str(user.tokenFile) ? path(str(user.tokenFile)) : undefined,
    certPem: dataOrFile(user['client-certificate-data'], user['client-certificate'], path),
    keyPem: dataOrFile(user['client-key-data'], user['client-key'], path),
    namespace: str(context.namespace) || 'default',
  };
  if (isPlainObject(user.exec)) config.exec = execConfig(user.exec, userName, path, domain);
  return config;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function find(list: unknown, name: string): Named | undefined {
  if (!Array.isArray(list)) return undefined;
  return list.find((e): e is Named => isPlainObject(e) && e.name === name);
}

function section(entry: Named | undefined, key: string): Record<string, unknown> | undefined {
  const value = entry?.[key];
  return isPlainObject(value) ? value : undefined;
}

/** base64 `data` wins over a `file`; either gives the decoded text. */
function dataOrFile(data: unknown, file: unknown, path: (p: string) => string): string | undefined {
  if (str(data)) return Buffer.from(str(data), 'base64').toString('utf8');
  if (!str(file)) return undefined;
  try {
    return readFileSync(path(str(file)), 'utf8');
  } catch (err) {
    throw new KubeconfigError(`unable to read ${str(file)}: ${messageOf(err)}`);
  }
}

/** The cluster's exec extension, under Kubernetes' name or the domain's (the domain's wins). */
function execExtension(extensions: unknown, domain: ApiDomain): unknown {
  const names = [`${domain.group('client.authentication.k8s.io')}/exec`, 'client.authentication.k8s.io/exec'];
  for (const name of names) {
    const found = find(extensions, name);
    if (found) return found.extension;
  }
  return undefined;
}

/** clientcmd's validation and defaulting of an exec stanza, with its messages. */
function execConfig(exec: Record<string, unknown>, user: string, path: (p: string) => string, domain: ApiDomain): ExecConfig {
  const problems: string[] = [];
  const command = str(exec.command);
  const apiVersion = str(exec.apiVersion);
  if (!command) problems.push(`command must be specified for ${user} to use exec authentication plugin`);
  if (!apiVersion) problems.push(`apiVersion must be specified for ${user} to use exec authentication plugin`);
  const env = (Array.isArray(exec.env) ? exec.env : []).map((e) =>
    isPlainObject(e) ? { name: str(e.name), value: str(e.value) } : { name: '', value: '' },
  );
  if (env.some((e) => !e.name)) problems.push(`env variable name must be specified for ${user} to use exec authentication plugin`);
  const accepted = isAcceptedApiVersion('ExecCredential', apiVersion, domain);
  let mode = str(exec.interactiveMode);
  if (!mode && accepted && versionOf(apiVersion) === 'v1beta1') mode = 'IfAvailable';
  const interactiveMode = isInteractiveMode(mode) ? mode : undefined;
  if (!mode) problems.push(`interactiveMode must be specified for ${user} to use exec authentication plugin`);
  else if (!interactiveMode) problems.push(`invalid interactiveMode for ${user}: ${JSON.stringify(mode)}`);
  // Without a mode there is a problem above, so this throws whenever the mode is not one of the three.
  if (problems.length > 0 || !interactiveMode)
    throw new KubeconfigError(
      problems.length === 1 ? `invalid configuration: ${problems[0]}` : `invalid configuration: [${problems.join(', ')}]`,
    );
  if (!accepted) {
    throw new KubeconfigError(`exec plugin: invalid apiVersion ${JSON.stringify(apiVersion)}`);
  }
  return {
    apiVersion,
    command: command.includes('/') ? path(command) : command,
    args: (Array.isArray(exec.args) ? exec.args : []).map(String),
    env,
    interactiveMode,
    provideClusterInfo: exec.provideClusterInfo === true,
    installHint: str(exec.installHint) || undefined,
  };
}
