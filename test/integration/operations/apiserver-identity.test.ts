/**
 * API server identity Leases (APIServerIdentity) with two replicas on one etcd: each keeps its own
 * Lease in orch-system labelled apiserver.orch.io/identity=orch-apiserver, held by `<name>_<uuid>`,
 * 1 h long, and renews it; a replica starting deletes an identity Lease that expired (and no other
 * Lease); one that stops gracefully deletes its own. With --api-domain=k8s.io they are
 * kube-apiserver's, in kube-system; with the gate off there are none.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { startEtcd, type EtcdProcess } from '../../support/etcd.js';
import { eventually } from '../../support/eventually.js';
import type { TestClient } from '../../support/http-client.js';

const LEASES = '/apis/coordination.orch.io/v1/namespaces/orch-system/leases';
const SELECTOR = 'apiserver.orch.io/identity=orch-apiserver';

interface LeaseView {
  metadata: { name: string; labels?: Record<string, string> };
  spec: { holderIdentity: string; leaseDurationSeconds: number; renewTime: string };
}

async function identityLeases(c: TestClient, path = LEASES, selector = SELECTOR): Promise<LeaseView[]> {
  const r = await c.get(`${path}?labelSelector=${encodeURIComponent(selector)}`);
  assert.equal(r.status, 200, r.text);
  return r.body.items;
}

const microTime = (ms: number) => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

describe('API server identity leases, two replicas on one store', () => {
  const prefix = `/registry-${randomBytes(4).toString('hex')}`;
  let store: EtcdProcess;
  let a: TestServer;
  let b: TestServer | undefined;
  before(async () => {
    store = await startEtcd();
    a = await startTestServer({ etcd: store.endpoint, etcdPrefix: prefix });
  });
  after(async () => {
    await b?.stop();
    await a?.stop();
    await store?.stop();
  });

  it('each replica keeps its own lease; a starting one collects expired identity leases only; a stopping one deletes its own', async () => {
    const [mine] = await eventually('replica A identity lease', async () => {
      const l = await identityLeases(a.client);
      return l.length === 1 && l;
    });
    assert.match(mine.metadata.name, /^apiserver-[a-z2-7]{26}$/);
    assert.match(mine.spec.holderIdentity, new RegExp(`^${mine.metadata.name}_[0-9a-f-]{36}$`));
    assert.equal(mine.spec.leaseDurationSeconds, 3600);
    assert.equal(mine.metadata.labels?.['orch.io/hostname'], hostname());
    assert.ok(Math.abs(Date.parse(mine.spec.renewTime) - Date.now()) < 60_000, mine.spec.renewTime);

    // A replica that died two hours ago, and a leader-election Lease as old that is no identity lease.
    const old = microTime(Date.now() - 2 * 3_600_000);
    for (const [name, labels] of [
      ['apiserver-gone', { 'apiserver.orch.io/identity': 'orch-apiserver' }],
      ['some-controller', {}],
    ] as const) {
      const r = await a.client.post(LEASES, {
        metadata: { name, labels },
        spec: { holderIdentity: `${name}_x`, leaseDurationSeconds: 3600, renewTime: old },
      });
      assert.equal(r.status, 201, r.text);
    }

    b = await startTestServer({ etcd: store.endpoint, etcdPrefix: prefix });
    const both = await eventually('both replicas, the expired one collected', async () => {
      const l = await identityLeases(b!.client);
      return l.length === 2 && !l.some((x) => x.metadata.name === 'apiserver-gone') && l;
    });
    const theirs = both.find((x) => x.metadata.name !== mine.metadata.name)!;
    assert.notEqual(theirs.spec.holderIdentity, mine.spec.holderIdentity);
    assert.equal((await a.client.get(`${LEASES}/some-controller`)).status, 200, 'a Lease without the identity label is left alone');

    // Renewed: within the 10 s interval its renewTime moves on.
    await eventually('replica A renews its lease', async () => {
      const r = await a.client.get(`${LEASES}/${mine.metadata.name}`);
      return r.status === 200 && Date.parse(r.body.spec.renewTime) > Date.parse(mine.spec.renewTime);
    });

    await b.stop();
    b = undefined;
    const left = await identityLeases(a.client);
    assert.deepEqual(
      left.map((x) => x.metadata.name),
      [mine.metadata.name],
      'the stopped replica deleted its lease',
    );
  });
});

describe('API server identity leases, domain and gate', () => {
  it('with --api-domain=k8s.io: kube-apiserver identity leases in kube-system', async () => {
    const s = await startTestServer({ args: ['--api-domain=k8s.io'] });
    try {
      const [lease] = await eventually('a kube-apiserver identity lease', async () => {
        const l = await identityLeases(
          s.client,
          '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases',
          'apiserver.kubernetes.io/identity=kube-apiserver',
        );
        return l.length === 1 && l;
      });
      assert.equal(lease.metadata.labels?.['kubernetes.io/hostname'], hostname());
    } finally {
      await s.stop();
    }
  });

  it('with --feature-gates=APIServerIdentity=false: none', async () => {
    const s = await startTestServer({ args: ['--feature-gates=APIServerIdentity=false'] });
    try {
      // Ready (the server was waited for) is after the bootstrap, which the lease would have started with.
      const ready = await s.client.get('/readyz?verbose');
      assert.doesNotMatch(ready.text, /identity-lease/);
      assert.deepEqual(await identityLeases(s.client), []);
    } finally {
      await s.stop();
    }
  });
});
