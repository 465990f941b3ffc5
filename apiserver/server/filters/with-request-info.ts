import { parseRequestInfo, setRequestInfo } from '../../endpoints/request/request-info.js';
import type { Handler } from './handler.js';

/** Parses the request's path, query and method once; everything later reads requestInfoFrom(req). */
export function withRequestInfo(handler: Handler): Handler {
  return (req, res) => {
    setRequestInfo(req, parseRequestInfo(req.method ?? 'GET', req.url ?? '/'));
    return handler(req, res);
  };
}
