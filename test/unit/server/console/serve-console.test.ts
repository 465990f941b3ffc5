/**
 * The console's file filter on a real HTTP server over a real assets folder: exact names only,
 * the security headers on every file, no cookie, 404 for anything else under /console/ (dot
 * segments, encoded or not, sub-folders), 405 for writes, and every other path left to the chain.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConsoleAssets, withConsole } from '../../../../apiserver/server/console/serve-console.js';
import { ApiError } from '../../../../apiserver/api/status.js';

describe('withConsole', () => {
  let dir: string;
  let server: Server;
  let port: number;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'orch-console-'));
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><p>console</p>');
    writeFileSync(join(dir, 'app.js'), 'export {};');
    writeFileSync(join(dir, 'notes.txt'), 'not served: no known type');
    writeFileSync(join(dir, 'sub', 'x.js'), 'nested: not loaded');
    const handler = withConsole(
      (_req, res) => {
        res.end('next');
      },
      loadConsoleAssets(pathToFileURL(`${dir}/`)),
    );
    server = createServer(async (req, res) => {
      try {
        await handler(req, res);
      } catch (err) {
        res.statusCode = err instanceof ApiError ? err.status.code : 500;
        res.end();
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const address = server.address();
    port = typeof address === 'object' && address ? address.port : 0;
  });
  after(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const send = (method: string, path: string) =>
    new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, method }, (res) => {
        let body = '';
        res.on('data', (d) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    });

  it('serves the page and its script with a strict CSP, nosniff, no framing and no cookie', async () => {
    for (const [path, type] of [
      ['/console/', 'text/html; charset=utf-8'],
      ['/console/app.js', 'text/javascript; charset=utf-8'],
    ]) {
      const res = await send('GET', path);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers['content-type'], type);
      assert.equal(
        res.headers['content-security-policy'],
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      );
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.headers['x-frame-options'], 'DENY');
      assert.equal(res.headers['set-cookie'], undefined);
    }
    assert.equal((await send('GET', '/console/?x=1')).body, '<!doctype html><p>console</p>');
    const head = await send('HEAD', '/console/app.js');
    assert.equal(head.status, 200);
    assert.equal(head.body, '');
  });

  it('answers 404 for every other path under /console/, 405 for writes, 301 for /console', async () => {
    for (const path of [
      '/console/nope.js',
      '/console/notes.txt',
      '/console/sub/x.js',
      '/console/../package.json',
      '/console/%2e%2e/package.json',
      '/console//app.js',
    ])
      assert.equal((await send('GET', path)).status, 404, path);
    assert.equal((await send('POST', '/console/app.js')).status, 405);
    const redirect = await send('GET', '/console');
    assert.equal(redirect.status, 301);
    assert.equal(redirect.headers.location, '/console/');
  });

  it('leaves every other path to the rest of the chain', async () => {
    for (const path of ['/healthz', '/consoles/', '/api/v1/namespaces', '/']) assert.equal((await send('GET', path)).body, 'next', path);
  });

  it('serves nothing when the bundle was not built', () => {
    assert.equal(loadConsoleAssets(pathToFileURL(join(dir, 'missing/'))).size, 0);
  });
});
