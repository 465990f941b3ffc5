import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { decodeObject, parseDocument, readBody } from '../../../apiserver/endpoints/body.js';
import type { Definitions } from '../../../apiserver/api/schema.js';
import { definitions } from '../../../apiserver/api/generated/definitions.js';
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

/** What readBody(req, maxBytes) gives on a real server once the whole body has arrived, for a body sent in `chunks`. */
async function bodyOnServer(chunks: string[], maxBytes: number): Promise<string> {
  const server = createServer((req, res) => {
    // Wait until the body has wholly arrived: readBody then takes it in one read.
    const read = () =>
      readBody(req, maxBytes).then(
        (b) => `${req.complete}:${b.toString()}`,
        (e: ApiError) => `${req.complete}:${e.code}`,
      );
    const answer = () => void read().then((text) => res.end(text));
    if (req.complete) answer();
    else setTimeout(answer, 50);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await new Promise<string>((resolve, reject) => {
      const req = httpRequest({ port: (server.address() as AddressInfo).port, method: 'POST', host: '127.0.0.1' }, (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve(text));
      });
      req.on('error', reject);
      for (const c of chunks) req.write(c);
      req.end();
    });
  } finally {
    server.close();
  }
}

test('readBody: a body already received is read whole; past maxBytes it is a 413', async () => {
  assert.equal(await bodyOnServer(['{"a":', '1}'], 100), 'true:{"a":1}');
  assert.equal(await bodyOnServer(['12345', '6789'], 5), 'true:413');
  assert.equal(await bodyOnServer([], 5), 'true:');
});

/** A custom resource's decoding: its schema with metadata typed as every object's, its own fields unchecked here. */
const cronTab = {
  kind: 'CronTab',
  version: 'v1',
  apiVersion: 'stable.example.com/v1',
  schemaRef: { $ref: '#/definitions/test.CronTab' },
  unstructured: true,
};
const cronTabDefinitions = {
  ...definitions,
  'test.CronTab': {
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { $ref: '#/definitions/meta.v1.ObjectMeta' },
      spec: { type: 'object', properties: { replicas: { type: 'integer' } } },
    },
  },
} as Definitions;

test('decodeObject: a custom resource with metadata of the wrong type is a 400 (its annotations, labels or name reached validation as objects: a 500)', () => {
  for (const metadata of [
    { name: 'a', annotations: [{ note: 'x' }] },
    { name: 'a', labels: { app: ['x'] } },
    { name: [['a']] },
    { name: { toString: {} } },
    { name: 'a', annotations: { note: null } },
  ]) {
    assert.throws(
      () => decodeObject({ apiVersion: cronTab.apiVersion, kind: 'CronTab', metadata }, cronTab, cronTabDefinitions, 'Warn'),
      (err: unknown) => err instanceof ApiError && err.status.code === 400 && /metadata\./.test(err.status.message ?? ''),
      JSON.stringify(metadata),
    );
  }
});

test('decodeObject: a custom resource field of the wrong type is left to the strategy (a 422 there), as before', () => {
  const { object } = decodeObject(
    { apiVersion: cronTab.apiVersion, kind: 'CronTab', metadata: { name: 'a' }, spec: { replicas: 'many' } },
    cronTab,
    cronTabDefinitions,
    'Warn',
  );
  assert.deepEqual(object.spec, { replicas: 'many' });
});

test('decodeObject: an apiVersion or kind of another type is a 400 naming it as JSON (an array holding an object with a toString member was a 500)', () => {
  for (const field of ['apiVersion', 'kind']) {
    const value = { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'a' }, [field]: [[null], { toString: 'x' }] };
    assert.throws(
      () => decodeObject(value, cronTab, cronTabDefinitions, 'Warn'),
      (err: unknown) =>
        err instanceof ApiError && err.status.code === 400 && (err.status.message ?? '').includes('([[null],{"toString":"x"}])'),
    );
  }
});

test('parseDocument: lone surrogates and invalid UTF-8 become U+FFFD, as Go decodes them; pairs stay', () => {
  const json = (text: string | Buffer) => parseDocument(Buffer.from(text), 'application/json').value;
  assert.deepEqual(json('{"a": "\\ud800", "\\udc00k": ["x\\ud800y", {"b": "\\udfff"}], "ok": "\\ud83d\\ude00"}'), {
    a: '\ufffd',
    '\ufffdk': ['x\ufffdy', { b: '\ufffd' }],
    ok: '😀',
  });
  assert.deepEqual(parseDocument(Buffer.from('a: "\\ud800"\nb: ["\\U0000DC00"]\n'), 'application/yaml').value, {
    a: '\ufffd',
    b: ['\ufffd'],
  });
  // A cut 4-byte sequence is three bytes, each one U+FFFD (utf8.DecodeRune); WHATWG decoding makes it one.
  assert.deepEqual(json(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xf0, 0x9f, 0x98, 0x22, 0x7d])), { a: '\ufffd\ufffd\ufffd' });
});
