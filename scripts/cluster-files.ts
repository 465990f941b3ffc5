/**
 * The files a small orch cluster starts from, created once in a directory and reused after:
 * certs/ (CA and serving certificate), tokens.csv (a random admin token, user admin in
 * system:masters) and admin kubeconfigs. Used by all-in-one and by deploy/init-cluster.mjs.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { parseTokenFile } from '../apiserver/authentication/token-file.js';
import { ensureCA, ensureServingCert, newClientCert } from '../apiserver/component-base/certs/certs.js';
import type { ApiDomain } from '../apiserver/api/domain.js';
import { CONTROLLER_ACCOUNTS } from '../apiserver/authorization/rbac/bootstrap/controller-roles.js';
import { SYSTEM_USERS } from '../apiserver/authorization/rbac/bootstrap/cluster-role-bindings.js';

/** Paths and contents of a cluster's certificates and admin token. */
export interface ClusterFiles {
  caFile: string;
  caPem: string;
  certFile: string;
  keyFile: string;
  tokensFile: string;
  token: string;
}

/**
 * Creates or reuses the CA, a serving certificate for the default hosts plus `hosts`, and the
 * admin token, in `dir`.
 */
export function ensureClusterFiles(dir: string, hosts: string[] = []): ClusterFiles {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const certDir = join(dir, 'certs');
  const ca = ensureCA(certDir);
  const serving = ensureServingCert(certDir, ca, hosts);
  const tokensFile = join(dir, 'tokens.csv');
  const token = ensureAdminToken(tokensFile);
  return { caFile: ca.certFile, caPem: ca.certPem, certFile: serving.certFile, keyFile: serving.keyFile, tokensFile, token };
}

/** Writes a kubeconfig (cluster orch, user admin, context orch) for `server` to `file`, mode 0600. */
export function writeAdminKubeconfig(file: string, server: string, files: Pick<ClusterFiles, 'caPem' | 'token'>): void {
  writeSecret(
    file,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'orch', cluster: { server, 'certificate-authority-data': Buffer.from(files.caPem).toString('base64') } }],
      users: [{ name: 'admin', user: { token: files.token } }],
      contexts: [{ name: 'orch', context: { cluster: 'orch', user: 'admin' } }],
      'current-context': 'orch',
      preferences: {},
    }),
  );
}

/** The admin token from `file`, which is created with a new random one the first time. */
function ensureAdminToken(file: string): string {
  if (existsSync(file)) {
    const admin = parseTokenFile(readFileSync(file, 'utf8'), file).find((e) => e.user.name === 'admin');
    if (!admin) throw new Error(`${file} has no token for user admin; remove it to create a new one`);
    return admin.token;
  }
  const token = randomBytes(32).toString('base64url');
  writeSecret(file, `${token},admin,admin,"system:masters"\n`);
  return token;
}

function writeSecret(file: string, content: string): void {
  writeFileSync(file, content, { mode: 0o600 });
  chmodSync(file, 0o600); // the mode above applies only when the file is new
}
/** A kubeconfig for `server` that authenticates with a client certificate for user `cn` in groups `orgs`. */
function writeClientCertKubeconfig(file: string, server: string, caPem: string, cn: string, orgs: string[], certDir: string): void {
  const pair = newClientCert(ensureCA(certDir), { cn, orgs });
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  writeSecret(
    file,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'orch', cluster: { server, 'certificate-authority-data': b64(caPem) } }],
      users: [{ name: cn, user: { 'client-certificate-data': b64(pair.certPem), 'client-key-data': b64(pair.keyPem) } }],
      contexts: [{ name: 'orch', context: { cluster: 'orch', user: cn } }],
      'current-context': 'orch',
      preferences: {},
    }),
  );
}

/**
 * Least-privilege identities for orch-controller-manager, as client certificates from the cluster
 * CA: `controller-manager.kubeconfig` (system:kube-controller-manager: shared informers, leader
 * election) and `controllers/<controller>.kubeconfig`, one per controller, as its ServiceAccount
 * in the system namespace (bound to its system:controller:<name> role by the default policy).
 * Returns the kubeconfig and the directory for --kubeconfig and --controller-kubeconfig-dir.
 */
export function writeControllerManagerKubeconfigs(dir: string, server: string, caPem: string, domain: ApiDomain) {
  const certDir = join(dir, 'certs');
  const kubeconfig = join(dir, 'controller-manager.kubeconfig');
  writeClientCertKubeconfig(kubeconfig, server, caPem, SYSTEM_USERS.kubeControllerManager, [], certDir);
  const controllersDir = join(dir, 'controllers');
  mkdirSync(controllersDir, { recursive: true, mode: 0o700 });
  const ns = domain.systemNamespace;
  for (const [controller, account] of Object.entries(CONTROLLER_ACCOUNTS)) {
    const user = `system:serviceaccount:${ns}:${account}`;
    writeClientCertKubeconfig(
      join(controllersDir, `${controller}.kubeconfig`),
      server,
      caPem,
      user,
      ['system:serviceaccounts', `system:serviceaccounts:${ns}`],
      certDir,
    );
  }
  return { kubeconfig, controllersDir };
}
