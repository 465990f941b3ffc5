/**
 * The answer to an upgrade request passed back over the client's raw socket, shared by CONNECT's
 * SPDY pass-through (endpoints/handlers/connect.ts) and the front door (frontdoor/upgrade.ts). Once
 * the upstream switches protocols, its status line and headers are written to the client and the two
 * connections are joined byte for byte until either closes. An upstream that answers without
 * upgrading (401, 403, 404…) has its answer passed back: the body is written as Node decoded it, to
 * the end of the connection, so Transfer-Encoding, Content-Length and Connection are replaced by
 * `Connection: close` (a `chunked` header kept over a decoded body would break the client's parse).
 * Errors of `out` are the caller's to handle.
 */
import type { ClientRequest, IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

export interface UpgradeAnswerEvents {
  /** The upstream answered, upgrading or not: something was written to the client. */
  answered?(): void;
  /** The exchange is over: both connections closed, or the plain answer was passed back whole. */
  done?(): void;
}

export function passUpgradeAnswer(out: ClientRequest, socket: Duplex, head: Buffer, on: UpgradeAnswerEvents): void {
  let over = false;
  const done = (): void => {
    if (over) return;
    over = true;
    on.done?.();
  };
  out.on('upgrade', (res: IncomingMessage, upstream: Duplex, upstreamHead: Buffer) => {
    socket.write(`${statusLine(res)}${headerLines(res.rawHeaders)}\r\n`);
    if (upstreamHead.length) socket.write(upstreamHead);
    if (head.length) upstream.write(head);
    upstream.pipe(socket).on('error', () => upstream.destroy());
    socket.pipe(upstream).on('error', () => socket.destroy());
    const close = (): void => {
      upstream.destroy();
      socket.destroy();
      done();
    };
    upstream.once('close', close);
    socket.once('close', close);
    on.answered?.();
  });
  out.on('response', (res: IncomingMessage) => {
    const headers = headerLines(res.rawHeaders, (name) => !/^(transfer-encoding|connection|content-length)$/i.test(name));
    socket.write(`${statusLine(res)}${headers}Connection: close\r\n\r\n`);
    res.pipe(socket);
    res.once('end', done);
    res.once('close', done);
    on.answered?.();
  });
}

function statusLine(res: IncomingMessage): string {
  return `HTTP/1.1 ${res.statusCode} ${res.statusMessage ?? ''}\r\n`;
}

function headerLines(raw: string[], keep: (name: string) => boolean = () => true): string {
  let lines = '';
  for (let i = 0; i + 1 < raw.length; i += 2) if (keep(raw[i])) lines += `${raw[i]}: ${raw[i + 1]}\r\n`;
  return lines;
}
