import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { newHealthChecks, type HealthChecks } from '../../../../apiserver/component-base/health/health-checks.js';

interface Answer {
  status: number;
  body: string;
  contentType?: string;
  nosniff?: string;
}

/** Serves `health` on a loopback port for the test; other paths get 418. */
async function serve(t: { after(fn: () => void): void }, health: HealthChecks): Promise<(path: string) => Promise<Answer>> {
  const server = createServer((req, res) => {
    if (!health.handle(req, res)) res.writeHead(418).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => server.close());
  const { port } = server.address() as AddressInfo;
  return (path) =>
    new Promise((resolve, reject) => {
      get({ host: '127.0.0.1', port, path }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            body,
            contentType: res.headers['content-type'],
            nosniff: res.headers['x-content-type-options'] as string | undefined,
          }),
        );
      }).on('error', reject);
    });
}

test('all passing: "ok", plain text, nosniff', async (t) => {
  const fetch = await serve(t, newHealthChecks());
  for (const endpoint of ['/healthz', '/livez', '/readyz']) {
    assert.deepEqual(await fetch(endpoint), { status: 200, body: 'ok', contentType: 'text/plain; charset=utf-8', nosniff: 'nosniff' });
  }
});

test('verbose lists each check; readyz ends with shutdown', async (t) => {
  const health = newHealthChecks();
  health.add('etcd', () => {}, ['healthz', 'livez', 'readyz']);
  health.add('informer-sync', async () => {}, ['readyz']);
  const fetch = await serve(t, health);
  assert.deepEqual(await fetch('/healthz?verbose'), {
    status: 200,
    body: '[+]ping ok\n[+]log ok\n[+]etcd ok\nhealthz check passed\n',
    contentType: 'text/plain; charset=utf-8',
    nosniff: 'nosniff',
  });
  assert.equal((await fetch('/livez?verbose')).body, '[+]ping ok\n[+]log ok\n[+]etcd ok\nlivez check passed\n');
  assert.equal(
    (await fetch('/readyz?verbose=1')).body,
    '[+]ping ok\n[+]log ok\n[+]etcd ok\n[+]informer-sync ok\n[+]shutdown ok\nreadyz check passed\n',
  );
});

test('a failing check fails the endpoint with the verbose list and withholds the reason', async (t) => {
  const failures: unknown[] = [];
  const health = newHealthChecks({ onFailure: (endpoint, list) => failures.push({ endpoint, list }) });
  health.add('etcd', async () => {
    throw new Error('dial tcp 127.0.0.1:2379: connect: connection refused');
  }, ['healthz', 'readyz']);
  const fetch = await serve(t, health);
  assert.deepEqual(await fetch('/healthz'), {
    status: 500,
    body: '[+]ping ok\n[+]log ok\n[-]etcd failed: reason withheld\nhealthz check failed\n',
    contentType: 'text/plain; charset=utf-8',
    nosniff: 'nosniff',
  });
  assert.equal(
    (await fetch('/readyz')).body,
    '[+]ping ok\n[+]log ok\n[-]etcd failed: reason withheld\n[+]shutdown ok\nreadyz check failed\n',
  );
  assert.deepEqual(await fetch('/livez'), { status: 200, body: 'ok', contentType: 'text/plain; charset=utf-8', nosniff: 'nosniff' });
  assert.deepEqual(failures[0], {
    endpoint: 'healthz',
    list: [{ name: 'etcd', reason: 'dial tcp 127.0.0.1:2379: connect: connection refused', pending: false }],
  });
});

test('an unfinished post-start hook and the shutdown check fail as pending (starting or stopping, not broken)', async (t) => {
  const failures: { endpoint: string; list: unknown[] }[] = [];
  const health = newHealthChecks({ onFailure: (endpoint, list) => failures.push({ endpoint, list }) });
  const done = health.addPostStartHook('bootstrap-controller');
  const fetch = await serve(t, health);
  assert.equal((await fetch('/readyz')).status, 500);
  assert.deepEqual(failures.pop(), {
    endpoint: 'readyz',
    list: [{ name: 'poststarthook/bootstrap-controller', reason: 'not finished', pending: true }],
  });
  done();
  health.startShutdown();
  assert.equal((await fetch('/readyz')).status, 500);
  assert.deepEqual(failures.pop(), { endpoint: 'readyz', list: [{ name: 'shutdown', reason: 'process is shutting down', pending: true }] });
});

test('exclude skips checks; unknown names are warned about', async (t) => {
  const health = newHealthChecks();
  health.add('etcd', () => {
    throw new Error('down');
  }, ['readyz']);
  const fetch = await serve(t, health);
  assert.deepEqual(await fetch('/readyz?exclude=etcd'), {
    status: 200,
    body: 'ok',
    contentType: 'text/plain; charset=utf-8',
    nosniff: 'nosniff',
  });
  assert.equal(
    (await fetch('/readyz?verbose&exclude=etcd&exclude=nope&exclude=log')).body,
    '[+]ping ok\n[+]log excluded: ok\n[+]etcd excluded: ok\n[+]shutdown ok\nwarn: some health checks cannot be excluded: no matches for "nope"\nreadyz check passed\n',
  );
});

test('one check by name: ok, its error, or 404', async (t) => {
  const health = newHealthChecks();
  health.add('etcd', () => {
    throw new Error('down');
  }, ['livez']);
  const fetch = await serve(t, health);
  assert.deepEqual(await fetch('/livez/ping'), { status: 200, body: 'ok', contentType: 'text/plain; charset=utf-8', nosniff: 'nosniff' });
  assert.deepEqual(await fetch('/livez/etcd'), {
    status: 500,
    body: 'internal server error: down\n',
    contentType: 'text/plain; charset=utf-8',
    nosniff: 'nosniff',
  });
  assert.equal((await fetch('/readyz/etcd')).status, 404);
  assert.equal((await fetch('/readyz/shutdown')).body, 'ok');
  assert.equal((await fetch('/healthz/log')).body, 'ok');
});

test('paths that are not health endpoints are left to the caller', async (t) => {
  const fetch = await serve(t, newHealthChecks());
  assert.equal((await fetch('/healthzz')).status, 418);
  assert.equal((await fetch('/api/v1')).status, 418);
});

test('post-start hooks fail everywhere until done', async (t) => {
  const health = newHealthChecks();
  const done = health.addPostStartHook('start-informers');
  const fetch = await serve(t, health);
  assert.equal(
    (await fetch('/readyz')).body,
    '[+]ping ok\n[+]log ok\n[-]poststarthook/start-informers failed: reason withheld\n[+]shutdown ok\nreadyz check failed\n',
  );
  assert.equal((await fetch('/healthz')).status, 500);
  assert.equal((await fetch('/livez')).status, 500);
  assert.deepEqual((await fetch('/livez/poststarthook/start-informers')).body, 'internal server error: not finished\n');
  done();
  assert.equal((await fetch('/readyz')).body, 'ok');
  assert.equal((await fetch('/livez/poststarthook/start-informers')).body, 'ok');
});

test('shutdown fails readyz only', async (t) => {
  const health = newHealthChecks();
  const fetch = await serve(t, health);
  health.startShutdown();
  assert.deepEqual(await fetch('/readyz'), {
    status: 500,
    body: '[+]ping ok\n[+]log ok\n[-]shutdown failed: reason withheld\nreadyz check failed\n',
    contentType: 'text/plain; charset=utf-8',
    nosniff: 'nosniff',
  });
  assert.equal((await fetch('/readyz/shutdown')).body, 'internal server error: process is shutting down\n');
  assert.equal((await fetch('/livez')).body, 'ok');
  assert.equal((await fetch('/healthz')).body, 'ok');
});

test('livez grace period: failing livez checks pass until it is over', async (t) => {
  let clock = 1000;
  const health = newHealthChecks({ livezGracePeriodMs: 5000, now: () => clock });
  health.addPostStartHook('slow');
  const fetch = await serve(t, health);
  clock = 5999;
  assert.equal((await fetch('/livez')).body, 'ok');
  assert.equal((await fetch('/readyz')).status, 500, 'readyz has no grace period');
  assert.equal((await fetch('/healthz')).status, 500, 'healthz has no grace period');
  clock = 6000;
  assert.equal((await fetch('/livez')).status, 500);
});

test('a name can be used once per endpoint', () => {
  const health = newHealthChecks();
  health.add('etcd', () => {}, ['readyz']);
  assert.throws(() => health.add('etcd', () => {}, ['livez', 'readyz']), /"etcd" is already installed on \/readyz/);
  assert.throws(() => health.add('ping', () => {}, ['livez']), /already installed/);
  assert.throws(() => health.add('shutdown', () => {}, ['readyz']), /already installed/);
  health.add('etcd', () => {}, ['livez']);
});
