/**
 * One set of test certificates per test run instead of new RSA keys at every server start.
 *
 * A server on an empty --cert-dir makes a CA, a serving certificate, a front-proxy CA and its client
 * certificate (four RSA keys); the cluster files of all-in-one and `npm run cluster` are some 65
 * keys. Keys take 0.3–1 s of CPU each on a small machine, which made the key generation a large
 * part of the suite's CPU time. scripts/run-tests.mjs therefore sets ORCH_TEST_PKI_DIR to a fresh
 * directory of its run: the first test that needs a kind of certificate set makes it there (the
 * code under test makes it, in a directory of its own), and later servers start from a copy.
 *
 * Without ORCH_TEST_PKI_DIR (a test file run by hand) every seed function does nothing, so each
 * server makes its own certificates as before. Tests of the generation itself (a first start
 * creating the files) or of distinct CAs do not seed.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { defaultServingHosts, ensureCA, ensureClientCert, ensureServingCert } from '../../apiserver/component-base/certs/certs.js';
import { FRONT_PROXY_CLIENT_CN } from '../../apiserver/server/aggregator/new-aggregator.js';
import { newApiDomain } from '../../apiserver/api/domain.js';
import { ensureClusterFiles, ensureFrontProxyFiles, writeControllerManagerKubeconfigs } from '../../scripts/cluster-files.js';

/** A template being made by another test process is waited for this long before this one makes its own. */
const BUILD_WAIT_MS = 120_000;

/** The run's shared directory, or undefined outside scripts/run-tests.mjs. */
export function testPkiDir(): string | undefined {
  return process.env.ORCH_TEST_PKI_DIR || undefined;
}

/**
 * Copies, when `certDir` has no CA yet, the run's serving certificate set into it: ca.crt/key,
 * apiserver.crt/key (signed by that CA, for the default hosts), front-proxy-ca.crt/key and
 * front-proxy-client.crt/key, what orch-apiserver and the controller manager's serving port make
 * in an empty --cert-dir. Returns whether it did.
 */
export function seedServingCerts(certDir: string): boolean {
  const template = sharedTemplate('serving', (dir) => {
    const ca = ensureCA(dir);
    ensureServingCert(dir, ca, defaultServingHosts());
    ensureClientCert(dir, 'front-proxy-client', ensureCA(dir, 'front-proxy-ca'), { cn: FRONT_PROXY_CLIENT_CN });
  });
  return copyInto(template, certDir, 'ca.crt');
}

/**
 * Copies, when `dir` has no certs/ca.crt yet, the run's cluster files for `apiDomain` (what
 * scripts/cluster-files.ts makes: CA, serving and client certificates, service-account keys, the
 * controllers' certificates, the front door's CA) into `dir`/certs; the admin token and the
 * kubeconfigs are made by the code under test. Returns whether it did.
 */
export function seedClusterFiles(dir: string, apiDomain?: string): boolean {
  const domain = newApiDomain(apiDomain);
  const template = sharedTemplate(`cluster-${domain.systemNamespace}`, (t) => {
    const files = ensureClusterFiles(t);
    ensureFrontProxyFiles(t);
    writeControllerManagerKubeconfigs(t, 'https://127.0.0.1:1', files, domain);
    // What an API server on this dir as its --cert-dir adds (all-in-one's: data-dir/certs).
    const certs = join(t, 'certs');
    ensureClientCert(certs, 'front-proxy-client', ensureCA(certs, 'front-proxy-ca'), { cn: FRONT_PROXY_CLIENT_CN });
  });
  return copyInto(template && join(template, 'certs'), join(dir, 'certs'), 'ca.crt');
}

/** An all-in-one --data-dir seeded (when empty) with the cluster files and the controller manager's serving certificates. */
export function seedAllInOneDataDir(dataDir: string, apiDomain?: string): void {
  seedClusterFiles(dataDir, apiDomain);
  seedServingCerts(join(dataDir, 'controller-manager'));
}

/** `--cert-dir=<dir>` seeded with the serving set (a fresh temp dir), or none outside a run: for in-process controller managers. */
export function seededCertDirArgs(): string[] {
  const root = testPkiDir();
  if (!root) return [];
  const dir = mkdtempSync(join(root, 'cert-dir-'));
  seedServingCerts(dir);
  return [`--cert-dir=${dir}`];
}

function copyInto(template: string | undefined, target: string, marker: string): boolean {
  if (!template || existsSync(join(target, marker))) return false;
  mkdirSync(target, { recursive: true, mode: 0o700 });
  cpSync(template, target, { recursive: true, force: false, errorOnExist: false });
  return true;
}

/**
 * `<ORCH_TEST_PKI_DIR>/<name>`, made once per run by `build` (into a temporary directory renamed
 * into place, so readers never see half of it); while another process builds it, waits for it.
 */
function sharedTemplate(name: string, build: (dir: string) => void): string | undefined {
  const root = testPkiDir();
  if (!root) return undefined;
  const done = join(root, name);
  const lock = join(root, `${name}.building`);
  const deadline = Date.now() + BUILD_WAIT_MS;
  while (!existsSync(done)) {
    try {
      mkdirSync(lock);
    } catch {
      // Another process builds it: wait (synchronously, as the certificate code itself is), unless it died long ago.
      if (Date.now() < deadline && Date.now() - mtime(lock) < BUILD_WAIT_MS) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
        continue;
      }
    }
    const tmp = mkdtempSync(join(root, `${name}.tmp-`));
    build(tmp);
    try {
      renameSync(tmp, done);
    } catch {
      rmSync(tmp, { recursive: true, force: true }); // another process got there first
    }
    rmSync(lock, { recursive: true, force: true });
  }
  return done;
}

function mtime(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}
