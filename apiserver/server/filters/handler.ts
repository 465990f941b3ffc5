import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * A request handler (Kubernetes' http.Handler): the router, or a filter wrapped around the next
 * handler. It answers by writing `res`; it fails by throwing or rejecting, and the outermost filter
 * (withStatusErrors) turns that into a Status answer. A filter returns what the handler it wraps
 * returns, so a rejection always travels out to it.
 */
export type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;
