import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { serverClasses } from '../../../apiserver/server/chain.js';

test("serverClasses: requests and responses are born with express' prototypes, which express then leaves in place", async () => {
  const app = express();
  const seen: string[] = [];
  app.use((req, res) => {
    seen.push(`${req.app === app} ${res.app === app} ${typeof req.get} ${typeof res.json}`);
    res.end('ok');
  });
  const classes = serverClasses(app);
  const server = createServer({ ...classes }, app);
  // Before express sees them: already with its prototypes.
  const prototypes: boolean[] = [];
  server.prependListener('request', (req, res) => {
    prototypes.push(Object.getPrototypeOf(req) === app.request && Object.getPrototypeOf(res) === app.response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const body = await new Promise<string>((resolve, reject) => {
      get(`http://127.0.0.1:${(server.address() as AddressInfo).port}/x`, (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve(text));
      }).on('error', reject);
    });
    assert.equal(body, 'ok');
    assert.deepEqual(prototypes, [true]);
    assert.deepEqual(seen, ['true true function function']);
  } finally {
    server.close();
  }
});
