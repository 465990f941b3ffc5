import type { NextFunction, Request, Response } from 'express';
import { parseRequestInfo, setRequestInfo } from '../../endpoints/request/request-info.js';

/** Parses the request's path and method once; everything later reads requestInfoFrom(req). */
export function withRequestInfo() {
  return (req: Request, _res: Response, next: NextFunction) => {
    setRequestInfo(req, parseRequestInfo(req.method, req.originalUrl ?? req.url));
    next();
  };
}
