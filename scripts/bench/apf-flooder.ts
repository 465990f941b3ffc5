/**
 * The apf-flood scenario's flooder, in a process of its own (forked by apf-flood.ts, which may
 * lower its CPU priority) so that draining its LIST answers neither delays the protected clients'
 * own reading nor, at a lower priority, competes with the server for the CPU as a flooder on
 * another machine would not: `concurrency` callers LIST `path` as `token` until told to stop, count
 * the answers by status and send them back over the IPC channel.
 */
import { Agent, request } from 'node:https';

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

export type FlooderMessage = 'started' | { progress: FlooderCounts } | { final: FlooderCounts };

const send = (m: FlooderMessage) => process.send?.(m);

function flood(data: FlooderData): void {
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
  // Progress, so the caller can wait until the flood is rejected before it measures.
  const progress = setInterval(() => send({ progress: { ...counts } }), 250);
  // Stopping drops the connections: a LIST still queued in the server would otherwise be awaited.
  process.once('message', async () => {
    stopped = true;
    clearInterval(progress);
    const final = { ...counts };
    agent.destroy();
    await Promise.all(callers);
    send({ final });
    process.disconnect();
  });
  send('started');
}

// The first message is the flooder's data, the second tells it to stop.
process.once('message', (data: FlooderData) => flood(data));
// Orphaned (its parent gone): stop.
process.once('disconnect', () => process.exit(0));
