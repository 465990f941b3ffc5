/**
 * An upgrade request through the front door (kubectl exec, attach and port-forward: SPDY/3.1 or
 * WebSocket): sent on to the replica as it came, with the identity headers; once the replica
 * switches protocols the two connections are joined byte for byte. A replica that answers without
 * upgrading (401, 403, 404…) has its answer passed back. Resolves 'sent' once the replica answered;
 * otherwise with the error and whether the request may have reached the replica (a connection was
 * made); nothing was written to the client then.
 */
import type { IncomingMessage } from 'node:http';
import { type Agent, request } from 'node:https';
import type { Duplex } from 'node:stream';
import { passUpgradeAnswer } from '../endpoints/upgrade-pass-through.js';

export function forwardUpgrade(
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  target: { url: string; agent: Agent; headers: Record<string, string | string[]> },
): Promise<'sent' | { error: Error; connected: boolean }> {
  return new Promise((resolve) => {
    const url = new URL(target.url);
    const out = request({
      host: url.hostname,
      port: url.port,
      method: req.method,
      path: req.url,
      agent: target.agent,
      headers: { ...req.headers, ...target.headers, host: url.host },
    });
    let connected = false;
    out.on('socket', (s) => {
      if (out.reusedSocket) connected = true;
      else s.once('secureConnect', () => (connected = true));
    });
    passUpgradeAnswer(out, socket, head, { answered: () => resolve('sent') });
    out.on('error', (error) => resolve({ error, connected }));
    out.end();
  });
}
