import type { NextFunction, Request, Response } from 'express';
import { requestInfoFrom } from '../../endpoints/request/request-info.js';

/** Counts requests in flight (long-running watches apart) so shutdown can wait for them. */
export interface InFlight {
  /** Resolves when no short request is in flight, or after timeoutMs. */
  drained(timeoutMs: number): Promise<void>;
  /** Ends every open watch stream. */
  closeWatches(): void;
  middleware(): (req: Request, res: Response, next: NextFunction) => void;
}

export function newInFlight(): InFlight {
  let count = 0;
  const waiters: (() => void)[] = [];
  const watches = new Set<Response>();
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
    closeWatches() {
      for (const res of watches) res.end();
    },
    middleware() {
      return (req, res, next) => {
        if (requestInfoFrom(req).verb === 'watch') {
          watches.add(res);
          res.on('close', () => watches.delete(res));
        } else {
          count++;
          res.on('close', done);
        }
        next();
      };
    },
  };
}
