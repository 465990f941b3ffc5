import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import * as status from '../../../../apiserver/api/status.js';
import { newLogger } from '../../../../apiserver/component-base/logs/logger.js';
import type { Handler } from '../../../../apiserver/server/filters/handler.js';
import { withStatusErrors } from '../../../../apiserver/server/filters/with-status-errors.js';

/** The status code, content type and body a server answers GET / with, its handler wrapped by withStatusErrors; '' when the connection is cut. */
async function answer(handler: Handler): Promise<string> {
  const log = new PassThrough();
  const server = createServer(withStatusErrors(handler, newLogger({ logLevel: '0' }, log)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await new Promise<string>((resolve) => {
      const req = request({ port: (server.address() as AddressInfo).port, host: '127.0.0.1', path: '/x?y=1' }, (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve(`${res.statusCode} ${res.headers['content-type']} ${JSON.parse(body).reason}`));
        res.on('error', () => resolve(''));
      });
      req.on('error', () => resolve(''));
      req.end();
    });
  } finally {
    server.close();
  }
}

test('withStatusErrors: thrown and rejected errors both become the Status answer', async () => {
  assert.equal(
    await answer(() => {
      throw status.notFound({ group: '', resource: 'pods' }, 'p');
    }),
    '404 application/json NotFound',
  );
  assert.equal(
    await answer(async () => {
      await Promise.resolve();
      throw status.conflict({ group: '', resource: 'pods' }, 'p', 'changed');
    }),
    '409 application/json Conflict',
  );
});

test('withStatusErrors: an unknown error is an InternalError; one with a client HTTP status a BadRequest', async () => {
  assert.equal(
    await answer(async () => {
      throw new Error('boom');
    }),
    '500 application/json InternalError',
  );
  assert.equal(
    await answer(() => {
      throw Object.assign(new Error('bad'), { status: 400 });
    }),
    '400 application/json BadRequest',
  );
});

test('withStatusErrors: an error after the answer started cuts the connection', async () => {
  const handler = async (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.write('{"partial":');
    await new Promise((resolve) => setTimeout(resolve, 10));
    throw new Error('late');
  };
  assert.equal(await answer(handler), '');
});

test('withStatusErrors: a request its client aborted logs no error and writes no answer', async () => {
  const log = new PassThrough();
  const lines: string[] = [];
  log.on('data', (d: Buffer) => lines.push(...d.toString().split('\n').filter(Boolean)));
  let failed!: () => void;
  const done = new Promise<void>((resolve) => (failed = resolve));
  const server = createServer(
    withStatusErrors(
      async (req: IncomingMessage, res: ServerResponse) => {
        try {
          // What reading a body cut short rejects with (endpoints/body.ts).
          await new Promise((_, reject) =>
            req.once('close', () =>
              reject(Object.assign(new Error('the request was closed before its body ended'), { code: 'ERR_STREAM_PREMATURE_CLOSE' })),
            ),
          );
        } finally {
          setImmediate(failed);
        }
        res.end();
      },
      newLogger({ logLevel: 'debug' }, log),
    ),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const req = request({
      port: (server.address() as AddressInfo).port,
      host: '127.0.0.1',
      path: '/x',
      method: 'POST',
      headers: { 'content-length': '100' },
    });
    req.on('error', () => {});
    req.write('{"partial":');
    setTimeout(() => req.destroy(), 50);
    await done;
    await new Promise((r) => setTimeout(r, 20));
    const parsed = lines.map((l) => JSON.parse(l) as { level: string; msg: string });
    assert.deepEqual(
      parsed.filter((l) => l.level === 'error'),
      [],
    );
    assert.ok(
      parsed.some((l) => l.level === 'debug' && l.msg === 'request aborted by the client'),
      JSON.stringify(parsed),
    );
  } finally {
    server.close();
  }
});
