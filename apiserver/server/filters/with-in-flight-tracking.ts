import type { IncomingMessage, ServerResponse } from 'node:http';
import { isLongRunning } from '../../endpoints/request/long-running.js';
import { requestInfoFrom } from '../../endpoints/request/request-info.js';
import { upgradeFrom } from '../../endpoints/request/upgrade.js';
import type { Handler } from './handler.js';

/**
 * Counts requests in flight so shutdown can wait for them. Long-running requests (watches, logs,
 * proxies, exec/attach/port-forward streams) are not waited for: shutdown ends them, as kube-apiserver
 * does not wait for them either.
 */
export interface InFlight {
  /** Resolves when no short request is in flight, or after timeoutMs. */
  drained(timeoutMs: number): Promise<void>;
  /** Ends every long-running request: watch streams end cleanly, other streams and upgraded connections are closed. */
  closeLongRunning(): void;
  /** The filter that counts the requests of `handler`. */
  filter(handler: Handler): Handler;
}

export function newInFlight(): InFlight {
  let count = 0;
  const waiters: (() => void)[] = [];
  const watches = new Set<ServerResponse>();
  /** Long-running requests that are not watches: their answer is a stream or an upgraded connection. */
  const streams = new Set<IncomingMessage>();
  const done = () => {
    count--;
    if (count === 0) waiters.splice(0).forEach((w) => w());
  };
  return {
    drained(timeoutMs) {
      if (count === 0) return Promise.resolve();
      return new Promise((resolve) => {
        const t = setTimeout(resolve, timeoutMs);
        waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    },
    closeLongRunning() {
      for (const res of watches) res.end();
      for (const req of streams) {
        const upgrade = upgradeFrom(req);
        if (upgrade) upgrade.socket.destroy();
        else req.socket.destroy();
      }
    },
    filter(handler) {
      return (req, res) => {
        const info = requestInfoFrom(req);
        if (info.verb === 'watch') {
          watches.add(res);
          res.on('close', () => watches.delete(res));
        } else if (isLongRunning(info)) {
          streams.add(req);
          res.on('close', () => streams.delete(req));
        } else {
          count++;
          res.on('close', done);
        }
        return handler(req, res);
      };
    },
  };
}
