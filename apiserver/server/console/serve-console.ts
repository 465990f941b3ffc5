/**
 * The web console's static files at /console/ (issue 29): the bundle `npm run build` writes next to
 * this module (assets/), read once at start into memory and served by exact name, so no request path
 * ever reaches the file system (no traversal) and a name not in the bundle is a 404. The files are
 * served before authentication, as /healthz is: they hold no data, and every read the page makes goes
 * through the API with the user's own bearer token, so the console has no privileges of its own.
 * No cookie is ever set (the token lives in the tab's sessionStorage and travels as an Authorization
 * header, which a cross-site page cannot make a browser send: CSRF-safe), and the Content-Security-
 * Policy admits only this origin's own scripts and styles, no inline code, no framing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as status from '../../api/status.js';
import { notFoundPath } from '../../endpoints/resource-handler.js';
import type { Handler } from '../filters/handler.js';

export const CONSOLE_PREFIX = '/console/';

/** Only this origin, no inline script or style, no plugins, never inside a frame. */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

interface Asset {
  body: Buffer;
  type: string;
}

export type ConsoleAssets = Map<string, Asset>;

/** The bundle's files by name; empty when the bundle was not built (every console path is then a 404). */
export function loadConsoleAssets(dir: URL = new URL('./assets/', import.meta.url)): ConsoleAssets {
  const assets = new Map<string, Asset>();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return assets;
  }
  for (const name of names) {
    const type = TYPES[name.slice(name.lastIndexOf('.'))];
    if (type) assets.set(name, { body: readFileSync(new URL(name, dir)), type });
  }
  return assets;
}

/** A filter answering /console and /console/…; every other path goes on to `next`. */
export function withConsole(next: Handler, assets: ConsoleAssets): Handler {
  return (req, res) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    if (path === '/console') return redirect(res);
    if (!path.startsWith(CONSOLE_PREFIX)) return next(req, res);
    return serve(req, res, assets, path.slice(CONSOLE_PREFIX.length) || 'index.html');
  };
}

function redirect(res: ServerResponse): void {
  res.statusCode = 301;
  res.setHeader('Location', CONSOLE_PREFIX);
  res.end();
}

function serve(req: IncomingMessage, res: ServerResponse, assets: Map<string, Asset>, name: string): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') throw status.methodNotAllowed();
  const asset = assets.get(name);
  if (!asset) throw notFoundPath();
  res.setHeader('Content-Type', asset.type);
  res.setHeader('Content-Length', asset.body.length);
  res.setHeader('Content-Security-Policy', CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cache-Control', 'no-cache');
  res.end(req.method === 'HEAD' ? undefined : asset.body);
}
