import type { IncomingMessage, ServerResponse } from 'node:http';
import * as status from '../../api/status.js';
import { writeStatus } from '../../endpoints/responses.js';
import { negotiateErrorOutput } from '../../endpoints/negotiation.js';
import type { ProtobufCodec } from '../../runtime/protobuf/codec.js';
import type { Logger } from '../../component-base/logs/logger.js';
import type { Handler } from './handler.js';
import { messageOf } from '../../api/thrown.js';

/**
 * The outermost safety net: anything the handler throws or rejects with becomes a Status answer;
 * what is not an ApiError is an InternalError and is logged with its stack, except errors that
 * carry an HTTP status below 500 (a library's client error), which are 400s. The Status is written
 * in the encoding the client accepts (JSON, YAML or protobuf), as Kubernetes does; an error after
 * the answer started ends the connection. A request whose client went away before its answer (the
 * handler fails reading a body cut short, or writing to a closed socket) is no server error: it is
 * logged at debug level as aborted, and no answer is written, so no 500 is counted either.
 */
export function withStatusErrors(
  handler: Handler,
  logger: Logger,
  protobuf?: ProtobufCodec,
): (req: IncomingMessage, res: ServerResponse) => void {
  const answer = (err: unknown, req: IncomingMessage, res: ServerResponse) => {
    // The client went away (closed the connection mid-request): not a server error, and nobody to answer.
    if (clientGone(req, res, err)) {
      logger.debug('request aborted by the client', {
        path: req.url?.split('?')[0],
        method: req.method,
        err: err instanceof Error ? err.message : String(err),
      });
      res.destroy();
      return;
    }
    let apiErr: status.ApiError;
    if (status.isApiError(err)) apiErr = err;
    else if (typeof (err as { status?: unknown })?.status === 'number' && (err as { status: number }).status < 500) {
      apiErr = status.badRequest(messageOf(err));
    } else {
      logger.error('internal error', {
        path: req.url?.split('?')[0],
        method: req.method,
        err: err instanceof Error ? err.stack : String(err),
      });
      apiErr = status.internal(err);
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const output = negotiateErrorOutput(req.headers.accept, protobuf !== undefined);
    writeStatus(res, apiErr.status, { ...output, protobuf, headOnly: req.method === 'HEAD' });
  };
  return (req, res) => {
    try {
      handler(req, res)?.catch((err: unknown) => answer(err, req, res));
    } catch (err) {
      answer(err, req, res);
    }
  };
}

/** Errors of a stream or socket the other side closed. */
const CLIENT_GONE_CODES = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ERR_STREAM_DESTROYED', 'ECONNABORTED']);

/** True when the request failed because its client closed the connection (any other error stays one). */
function clientGone(req: IncomingMessage, res: ServerResponse, err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  const closed = req.socket?.destroyed === true || res.destroyed || req.destroyed;
  return closed && typeof code === 'string' && CLIENT_GONE_CODES.has(code);
}
