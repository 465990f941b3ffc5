/** A protobuf watch for tests: reads the length-prefixed WatchEvent frames of `…protobuf;stream=watch`. */
import { request as httpsRequest, Agent } from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { TestClient } from './http-client.js';

export interface ProtobufWatch {
  status: number;
  contentType: string;
  /** The next frame's payload (a WatchEvent message), waiting up to timeoutMs. */
  next(timeoutMs?: number): Promise<Buffer>;
  close(): void;
}

export async function watchProtobuf(c: TestClient, path: string, accept = 'application/vnd.kubernetes.protobuf'): Promise<ProtobufWatch> {
  const agent = new Agent({ ca: c.config.ca });
  const headers: Record<string, string> = { Accept: accept };
  if (c.config.token) headers.Authorization = `Bearer ${c.config.token}`;
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = httpsRequest(new URL(path, c.config.url), { headers, agent }, resolve);
    req.on('error', reject);
    req.end();
  });
  let buf = Buffer.alloc(0);
  const frames: Buffer[] = [];
  let wake: (() => void) | undefined;
  res.on('data', (chunk: Buffer) => {
    buf = Buffer.concat([buf, chunk]);
    while (buf.length >= 4 && buf.length >= 4 + buf.readUInt32BE(0)) {
      const len = buf.readUInt32BE(0);
      frames.push(buf.subarray(4, 4 + len));
      buf = buf.subarray(4 + len);
    }
    wake?.();
  });
  return {
    status: res.statusCode ?? 0,
    contentType: String(res.headers['content-type'] ?? ''),
    async next(timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (!frames.length) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no protobuf watch frame within ${timeoutMs}ms`);
        await new Promise<void>((r) => {
          const t = setTimeout(r, left);
          wake = () => {
            clearTimeout(t);
            r();
          };
        });
      }
      return frames.shift()!;
    },
    close() {
      res.destroy();
      agent.destroy();
    },
  };
}
