import type { NextFunction, Request, Response } from 'express';
import * as status from '../../api/status.js';
import { writeStatus } from '../../endpoints/responses.js';
import type { Logger } from '../../component-base/logs/logger.js';

/**
 * The outermost safety net: anything thrown becomes a Status answer; what is not an ApiError is an
 * InternalError and is logged with its stack. Express' own errors (e.g. a malformed URL) map to 400.
 */
export function withStatusErrors(logger: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    let apiErr: status.ApiError;
    if (status.isApiError(err)) apiErr = err;
    else if (typeof (err as { status?: unknown })?.status === 'number' && (err as { status: number }).status < 500) {
      apiErr = status.badRequest((err as Error).message);
    } else {
      logger.error('internal error', { path: req.path, method: req.method, err: err instanceof Error ? err.stack : String(err) });
      apiErr = status.internal(err);
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    writeStatus(res, apiErr.status, { headOnly: req.method === 'HEAD' });
  };
}
