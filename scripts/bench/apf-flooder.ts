/**
 * The apf-flood scenario's flooder, on a thread of its own so that draining its LIST answers does
 * not delay the protected clients' own reading (their latencies would include it): `concurrency`
 * callers LIST `path` as `token` until told to stop, count the answers by status and post them back.
 */
import { Agent, request } from 'node:https';
import { parentPort, workerData } from 'node:worker_threads';

export interface FlooderData {
  server: string;
  ca?: Buffer;
  insecure?: boolean;
  token: string;
  path: string;
  concurrency: number;
}

export interface FlooderCounts {
  lists: number;
  rejected: number;
  errors: number;
}

const data = workerData as FlooderData;
const agent = new Agent({ keepAlive: true, maxSockets: data.concurrency, ca: data.ca, rejectUnauthorized: !data.insecure });
const counts: FlooderCounts = { lists: 0, rejected: 0, errors: 0 };
let stopped = false;

const list = () =>
  new Promise<void>((resolve) => {
    const req = request(
      new URL(data.path, data.server),
      { agent, headers: { Authorization: `Bearer ${data.token}`, Accept: 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) counts.lists++;
          else if (res.statusCode === 429) counts.rejected++;
          else counts.errors++;
          resolve();
        });
        res.on('error', () => resolve());
      },
    );
    req.on('error', () => {
      if (!stopped) counts.errors++;
      resolve();
    });
    req.end();
  });

// A rejected flooder comes straight back: it ignores Retry-After.
const callers = Array.from({ length: data.concurrency }, async () => {
  while (!stopped) await list();
});
// Stopping drops the connections: a LIST still queued in the server would otherwise be awaited.
parentPort!.once('message', async () => {
  stopped = true;
  clearInterval(progress);
  const final = { ...counts };
  agent.destroy();
  await Promise.all(callers);
  parentPort!.postMessage(final);
});
// Progress, so the caller can wait until the flood is rejected before it measures.
const progress = setInterval(() => parentPort!.postMessage({ progress: { ...counts } }), 250);
parentPort!.postMessage('started');
