import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { readBody } from '../../../apiserver/endpoints/body.js';
import { ApiError } from '../../../apiserver/api/status.js';

/** A request body stream with the given headers. */
function request(headers: Record<string, string> = {}): PassThrough & IncomingMessage {
  return Object.assign(new PassThrough(), { headers }) as unknown as PassThrough & IncomingMessage;
}

test('readBody: the chunks of a body, in order', async () => {
  const req = request();
  const body = readBody(req, 100);
  req.write('{"a":');
  req.write('1}');
  req.end();
  assert.equal((await body).toString(), '{"a":1}');
});

test('readBody: an empty body is an empty buffer', async () => {
  const req = request();
  const body = readBody(req, 100);
  req.end();
  assert.equal((await body).length, 0);
});

test('readBody: a body growing past maxBytes without a declared length is refused with 413', async () => {
  const req = request();
  const body = readBody(req, 5);
  req.write('1234');
  req.write('5678');
  await assert.rejects(body, (e) => e instanceof ApiError && e.code === 413);
  req.end('more');
});

test('readBody: a declared length past maxBytes is refused with 413 before reading', async () => {
  await assert.rejects(readBody(request({ 'content-length': '6' }), 5), (e) => e instanceof ApiError && e.code === 413);
});

test('readBody: a request closed before its body ended fails', async () => {
  const req = request();
  const body = readBody(req, 100);
  req.write('{"a":');
  req.destroy();
  await assert.rejects(body, /closed before its body ended/);
});
