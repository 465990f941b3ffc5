import type { NextFunction, Request, Response } from 'express';
import * as status from '../../api/status.js';
import { writeStatus } from '../../endpoints/responses.js';
import { negotiateErrorOutput } from '../../endpoints/negotiation.js';
import type { ProtobufCodec } from '../../runtime/protobuf/codec.js';
import type { Logger } from '../../component-base/logs/logger.js';

/**
 * The outermost safety net: anything thrown becomes a Status answer; what is not an ApiError is an
 * InternalError and is logged with its stack. Express' own errors (e.g. a malformed URL) map to 400.
 * The Status is written in the encoding the client accepts (JSON, YAML or protobuf), as Kubernetes does.
 */
export function withStatusErrors(logger: Logger, protobuf?: ProtobufCodec) {
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
    const output = negotiateErrorOutput(req.headers.accept, protobuf !== undefined);
    writeStatus(res, apiErr.status, { ...output, protobuf, headOnly: req.method === 'HEAD' });
  };
}
