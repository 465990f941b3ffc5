/**
 * The files a small orch cluster starts from, created once in a directory and reused after:
 * certs/ (CA, serving certificate, client certificates of the admin — CN admin, O system:masters —
 * and of the controller manager — CN system:kube-controller-manager —, the service-account signing
 * key pair, and certs/controllers/ with one client certificate per controller), optionally
 * tokens.csv (a random admin token, user admin in system:masters), and kubeconfigs. Used by all-in-one, deploy/init-cluster.mjs and the benchmarks.
 */
import { X509Certificate, createPrivateKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { parseTokenFile } from '../apiserver/authentication/token-file.js';
import {
  ensureCA,
  ensureServingCert,
  newClientCert,
  type CertKeyFiles,
  type CertKeyPair,
  type ClientCertSubject,
} from '../apiserver/component-base/certs/certs.js';
import type { ApiDomain } from '../apiserver/api/domain.js';
import { KNOWN_CONTROLLERS } from '../controllers/app/known-controllers.js';
import { SYSTEM_USERS } from '../apiserver/authorization/rbac/bootstrap/cluster-role-bindings.js';

/** Paths and contents of a cluster's certificates, keys and admin token. */
export interface ClusterFiles {
  caFile: string;
  /** The CA's key: the controller manager signs approved certificate requests with it. */
  caKeyFile: string;
  caPem: string;
  certFile: string;
  keyFile: string;
  tokensFile: string;
  token: string;
  /** Client certificate of the admin: CN admin, O system:masters. */
  admin: CertKeyFiles;
  /** Client certificate of the controller manager: CN system:kube-controller-manager. */
  controllerManager: CertKeyFiles;
  /** The service-account token signing key (PKCS#8) and its public key (SPKI). */
  serviceAccountKeyFile: string;
  serviceAccountPublicKeyFile: string;
}

/** The identities Kubernetes gives the admin and the controller manager. */
export const ADMIN_SUBJECT: ClientCertSubject = { cn: 'admin', orgs: ['system:masters'] };
export const CONTROLLER_MANAGER_SUBJECT: ClientCertSubject = { cn: SYSTEM_USERS.kubeControllerManager };

/** A client certificate stored for this long before expiry is replaced. */
const RENEW_BEFORE_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Creates or reuses, in `dir`: the CA, a serving certificate for the default hosts plus `hosts`,
 * the admin and controller-manager client certificates, the service-account key pair, and the
 * admin token.
 */
export function ensureClusterFiles(dir: string, hosts: string[] = []): ClusterFiles {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const certDir = join(dir, 'certs');
  const ca = ensureCA(certDir);
  const serving = ensureServingCert(certDir, ca, hosts);
  const tokensFile = join(dir, 'tokens.csv');
  const token = ensureAdminToken(tokensFile);
  const serviceAccount = ensureServiceAccountKeys(certDir);
  return {
    caFile: ca.certFile,
    caKeyFile: ca.keyFile,
    caPem: ca.certPem,
    certFile: serving.certFile,
    keyFile: serving.keyFile,
    tokensFile,
    token,
    admin: ensureClientCert(certDir, 'admin', ca, ADMIN_SUBJECT),
    controllerManager: ensureClientCert(certDir, 'controller-manager', ca, CONTROLLER_MANAGER_SUBJECT),
    serviceAccountKeyFile: serviceAccount.keyFile,
    serviceAccountPublicKeyFile: serviceAccount.publicKeyFile,
  };
}

/** Writes a kubeconfig authenticating as `userName` with a client certificate, mode 0600. */
export function writeClientCertKubeconfig(file: string, server: string, caPem: string, userName: string, pair: CertKeyPair): void {
  writeKubeconfig(file, server, caPem, userName, {
    'client-certificate-data': Buffer.from(pair.certPem).toString('base64'),
    'client-key-data': Buffer.from(pair.keyPem).toString('base64'),
  });
}

/**
 * Least-privilege identities for orch-controller-manager, in `dir`: `controller-manager.kubeconfig`
 * as system:kube-controller-manager (shared informers, leader election) and
 * `controllers/<controller>.kubeconfig`, one per controller, as its ServiceAccount in the system
 * namespace (bound to its system:controller:<name> role by the default policy). The controllers'
 * client certificates are kept in certs/controllers/ and reused like the others. Returns the paths
 * for --kubeconfig and --controller-kubeconfig-dir.
 */
export function writeControllerManagerKubeconfigs(
  dir: string,
  server: string,
  files: Pick<ClusterFiles, 'caPem' | 'controllerManager'>,
  domain: ApiDomain,
): { kubeconfig: string; controllersDir: string } {
  const kubeconfig = join(dir, 'controller-manager.kubeconfig');
  writeClientCertKubeconfig(kubeconfig, server, files.caPem, CONTROLLER_MANAGER_SUBJECT.cn, files.controllerManager);
  const ca = ensureCA(join(dir, 'certs'));
  const certDir = join(dir, 'certs', 'controllers');
  const controllersDir = join(dir, 'controllers');
  mkdirSync(certDir, { recursive: true, mode: 0o700 });
  mkdirSync(controllersDir, { recursive: true, mode: 0o700 });
  const ns = domain.systemNamespace;
  for (const { name: controller, serviceAccount: account } of KNOWN_CONTROLLERS) {
    if (!account) continue;
    const subject = { cn: `system:serviceaccount:${ns}:${account}`, orgs: ['system:serviceaccounts', `system:serviceaccounts:${ns}`] };
    const pair = ensureClientCert(certDir, controller, ca, subject);
    writeClientCertKubeconfig(join(controllersDir, `${controller}.kubeconfig`), server, files.caPem, subject.cn, pair);
  }
  return { kubeconfig, controllersDir };
}

/** The CN of the front door's client certificate: the replicas' --requestheader-allowed-names. */
export const FRONT_PROXY_CN = 'orch-proxy';

/**
 * The front door's client certificate and its own CA, in `<dir>/certs/front-proxy/` (created once,
 * reused after). A CA of its own, as Kubernetes' front-proxy CA: the replicas believe identity
 * headers only over certificates of this CA, and the CA signs no user's certificate.
 */
export function ensureFrontProxyFiles(dir: string): { caFile: string; client: CertKeyFiles } {
  const certDir = join(dir, 'certs', 'front-proxy');
  const ca = ensureCA(certDir);
  return { caFile: ca.certFile, client: ensureClientCert(certDir, 'proxy-client', ca, { cn: FRONT_PROXY_CN }) };
}

/** `<dir>/<name>.crt` and `.key` when signed by `ca` for `subject` and not about to expire; otherwise issued anew. */
function ensureClientCert(dir: string, name: string, ca: CertKeyPair, subject: ClientCertSubject): CertKeyFiles {
  const certFile = join(dir, `${name}.crt`);
  const keyFile = join(dir, `${name}.key`);
  if (existsSync(certFile) && existsSync(keyFile)) {
    const pair = { certFile, keyFile, certPem: readFileSync(certFile, 'utf8'), keyPem: readFileSync(keyFile, 'utf8') };
    try {
      const cert = new X509Certificate(pair.certPem);
      const wantSubject = [...(subject.orgs ?? []).map((o) => `O=${o}`), `CN=${subject.cn}`].join('\n');
      if (
        cert.verify(new X509Certificate(ca.certPem).publicKey) &&
        cert.checkPrivateKey(createPrivateKey(pair.keyPem)) &&
        cert.subject === wantSubject &&
        Date.parse(cert.validTo) - Date.now() > RENEW_BEFORE_MS
      ) {
        return pair;
      }
    } catch {
      // unreadable: issued anew below
    }
  }
  const pair = newClientCert(ca, subject);
  writeSecret(keyFile, pair.keyPem);
  writeFileSync(certFile, pair.certPem);
  return { certFile, keyFile, ...pair };
}

/** The service-account signing key pair in `dir`, an RSA key generated the first time. */
function ensureServiceAccountKeys(dir: string): { keyFile: string; publicKeyFile: string } {
  const keyFile = join(dir, 'service-account.key');
  const publicKeyFile = join(dir, 'service-account.pub');
  if (!existsSync(keyFile)) {
    const pair = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    writeSecret(keyFile, pair.privateKey);
    writeFileSync(publicKeyFile, pair.publicKey);
  } else if (!existsSync(publicKeyFile)) {
    throw new Error(`${publicKeyFile} is missing while ${keyFile} exists; remove both to generate a new key pair`);
  }
  return { keyFile, publicKeyFile };
}

/** Writes a kubeconfig (cluster orch, user admin with the token, context orch) for `server` to `file`, mode 0600. */
export function writeAdminKubeconfig(file: string, server: string, files: Pick<ClusterFiles, 'caPem' | 'token'>): void {
  writeKubeconfig(file, server, files.caPem, 'admin', { token: files.token });
}

function writeKubeconfig(file: string, server: string, caPem: string, userName: string, user: Record<string, string>): void {
  writeSecret(
    file,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'orch', cluster: { server, 'certificate-authority-data': Buffer.from(caPem).toString('base64') } }],
      users: [{ name: userName, user }],
      contexts: [{ name: 'orch', context: { cluster: 'orch', user: userName } }],
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
