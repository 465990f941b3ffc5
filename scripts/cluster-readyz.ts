/** Waiting for an orch API server to be ready, as the all-in-one and the cluster topology scripts start them. */
import { request } from 'node:https';
import type { ClusterFiles } from './cluster-files.js';

/** How long a started API server may take to answer /readyz 200. */
export const READY_TIMEOUT_MS = 120_000;

/**
 * Consecutive 200s, each on a new connection, that make a server ready. With --workers each
 * connection goes to the next worker in turn, and each worker answers for its own readiness (its
 * post-start hooks): one 200 was one worker ready, and the next client could meet the other's 500.
 */
const READY_IN_A_ROW = 4;

/** Resolves once `<url>/readyz` answers 200 to the admin READY_IN_A_ROW times in a row; rejects after READY_TIMEOUT_MS. */
export async function waitReadyz(url: string, files: Pick<ClusterFiles, 'caPem' | 'admin'>): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let inARow = 0;
  while (Date.now() < deadline) {
    inARow = (await readyzStatus(url, files)) === 200 ? inARow + 1 : 0;
    if (inARow === READY_IN_A_ROW) return;
    if (inARow === 0) await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url}/readyz did not answer 200 within ${READY_TIMEOUT_MS / 1000}s`);
}

function readyzStatus(url: string, files: Pick<ClusterFiles, 'caPem' | 'admin'>): Promise<number | undefined> {
  return new Promise((resolve) => {
    const req = request(
      `${url}/readyz`,
      { ca: files.caPem, cert: files.admin.certPem, key: files.admin.keyPem, timeout: 2000, agent: false },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(undefined));
    req.end();
  });
}
