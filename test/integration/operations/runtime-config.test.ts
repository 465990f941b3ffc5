/** --runtime-config: group versions and single resources taken out of (or put back into) what is served. */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { parseServerOptions } from '../../../apiserver/server/options.js';

const servers: TestServer[] = [];
after(async () => {
  for (const s of servers) await s.stop();
});

describe('--runtime-config', () => {
  it('api/all=false with versions back on serves only those, in discovery and on their paths', async () => {
    const s = await startTestServer({ args: ['--runtime-config=api/all=false,api/v1=true,apps/v1,apps/v1/daemonsets=false'] });
    servers.push(s);
    const groups = (await s.client.get('/apis')).body.groups.map((g: { name: string }) => g.name);
    assert.deepEqual(groups, ['apps']);
    assert.equal((await s.client.get('/apis/batch/v1/jobs')).status, 404);
    assert.equal((await s.client.get('/apis/apps/v1/namespaces/default/deployments')).status, 200);
    assert.equal((await s.client.get('/apis/apps/v1/namespaces/default/daemonsets')).status, 404);
    const resources = (await s.client.get('/apis/apps/v1')).body.resources.map((r: { name: string }) => r.name);
    assert.ok(resources.includes('deployments') && !resources.includes('daemonsets'));
    assert.equal((await s.client.get('/api/v1/namespaces/default/configmaps')).status, 200);
    // The server's own bootstrap still works (RBAC, priority classes live on, unserved).
    assert.equal((await s.client.get('/readyz')).status, 200);
  });

  it('refuses unknown versions of known groups, bad values and the core group off; ignores unknown groups', () => {
    assert.throws(() => parseServerOptions(['--runtime-config=apps/v2=true']), {
      message: '--runtime-config: group version apps/v2 that has not been registered',
    });
    assert.throws(() => parseServerOptions(['--runtime-config=api/all=maybe']), {
      message: '--runtime-config: invalid value api/all=maybe',
    });
    assert.throws(() => parseServerOptions(['--runtime-config=apps/v1=maybe']), /invalid value of apps\/v1: maybe/);
    assert.throws(() => parseServerOptions(['--runtime-config=apps/v1/Deployments=false']), /resource is always lowercase plural/);
    assert.throws(() => parseServerOptions(['--runtime-config=v1=false']), /api\/v1 cannot be disabled/);
    parseServerOptions(['--runtime-config=example.com/v1=true']);
  });
});
