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
    const statusLine = (res: IncomingMessage): string =>
      `HTTP/1.1 ${res.statusCode} ${res.statusMessage ?? ''}\r\n${headerLines(res.rawHeaders)}\r\n`;
    out.on('upgrade', (res, upstream, upstreamHead) => {
      socket.write(statusLine(res));
      if (upstreamHead.length) socket.write(upstreamHead);
      if (head.length) upstream.write(head);
      upstream.pipe(socket).on('error', () => upstream.destroy());
      socket.pipe(upstream).on('error', () => socket.destroy());
      const close = (): void => {
        upstream.destroy();
        socket.destroy();
      };
      upstream.once('close', close);
      socket.once('close', close);
      resolve('sent');
    });
    out.on('response', (res) => {
      // The body is passed on decoded, to the end of the connection.
      const headers = headerLines(res.rawHeaders, (name) => !/^(transfer-encoding|connection|content-length)$/i.test(name));
      socket.write(`HTTP/1.1 ${res.statusCode} ${res.statusMessage ?? ''}\r\n${headers}Connection: close\r\n\r\n`);
      res.pipe(socket);
      resolve('sent');
    });
    out.on('error', (error) => resolve({ error, connected }));
    out.end();
  });
}

function headerLines(raw: string[], keep: (name: string) => boolean = () => true): string {
  let lines = '';
  for (let i = 0; i + 1 < raw.length; i += 2) if (keep(raw[i])) lines += `${raw[i]}: ${raw[i + 1]}\r\n`;
  return lines;
}
