import assert from 'node:assert/strict';
import { createServer, get, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import {
  WARNING_TRUNCATED_RUNES,
  WARNINGS_MAX_RUNES,
  warningHeader,
  warningHeaders,
  writeObject,
} from '../../../apiserver/endpoints/responses.js';

/** The Warning headers a client receives for an answer written with these warnings. */
async function received(warnings: string[]): Promise<string[]> {
  const server = createServer((_req, res) => writeObject(res, 200, { kind: 'Status' }, { encoding: 'json', warnings }));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const res = await new Promise<IncomingMessage>((resolve, reject) =>
      get(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, resolve).on('error', reject),
    );
    res.resume();
    const raw = res.rawHeaders;
    return raw.flatMap((v, i) => (i % 2 === 0 && v.toLowerCase() === 'warning' ? [raw[i + 1]] : []));
  } finally {
    server.close();
  }
}

test('warningHeader: quoted as Kubernetes does', () => {
  assert.equal(warningHeader('unknown field "spec.x"'), '299 - "unknown field \\"spec.x\\""');
});

test('warnings with characters beyond ASCII, controls, DEL and lone surrogates reach the client escaped (they were a 500: invalid header content)', async () => {
  const texts = ['unknown field "spec.é😀名"', 'duplicate field "a\u0000b\u007fc"', 'unknown field "\ud800x"', 'unknown field "\u2028"'];
  assert.deepEqual(await received(texts), [
    '299 - "unknown field \\"spec.\\u00e9\\ud83d\\ude00\\u540d\\""',
    '299 - "duplicate field \\"a\\u0000b\\u007fc\\""',
    '299 - "unknown field \\"\\ud800x\\""',
    '299 - "unknown field \\"\\u2028\\""',
  ]);
});

test('warningHeaders: each text once', () => {
  assert.deepEqual(warningHeaders(['a', 'b', 'a', 'a']), [warningHeader('a'), warningHeader('b')]);
});

test('warningHeaders: thousands of warnings are cut to Kubernetes bounds, so the headers stay within what clients read', async () => {
  const texts = Array.from({ length: 5000 }, (_, i) => `unknown field "spec.k${i}${'x'.repeat(300)}"`);
  const headers = warningHeaders(texts);
  const runes = headers.map((h) => [...JSON.parse(h.slice('299 - '.length))].length);
  assert.ok(runes.every((n) => n <= WARNING_TRUNCATED_RUNES));
  assert.ok(runes.reduce((a, b) => a + b, 0) <= WARNINGS_MAX_RUNES + WARNING_TRUNCATED_RUNES);
  assert.equal(headers[0], warningHeader(texts[0].slice(0, WARNING_TRUNCATED_RUNES)));
  // Node's client refuses headers over 16 KiB in all: these arrive.
  assert.equal((await received(texts)).length, headers.length);
});

test('warningHeaders: warnings within the bound are kept whole', () => {
  const texts = [`a${'x'.repeat(1000)}`, `b${'y'.repeat(1000)}`];
  assert.deepEqual(warningHeaders(texts), texts.map(warningHeader));
});
