import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newResourceQuota } from '../../../../apiserver/admission/plugins/resource-quota.js';
import { RESOURCE_QUOTAS, typedReader } from '../../../../apiserver/admission/resources.js';
import { reservationsAnnotation } from '../../../../apiserver/api/quota-reservations.js';
import { attrs, domain, newEnv, Objects, rejection } from '../fixture.js';
import { pod } from './pod-fixture.js';

function world(...quotas: { name: string; spec: Record<string, unknown>; used?: Record<string, string> }[]) {
  const objects = new Objects();
  for (const q of quotas) {
    objects.put(RESOURCE_QUOTAS, {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: q.name, namespace: 'ns' },
      spec: q.spec,
      status: q.used ? { hard: q.spec.hard, used: q.used } : undefined,
    } as never);
  }
  return { objects, p: newResourceQuota(newEnv(objects), undefined) };
}
const used = async (objects: Objects, name: string) =>
  ((await objects.reader.get(RESOURCE_QUOTAS, 'ns', name)) as { status?: { used?: Record<string, string> } }).status?.used;
const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns' } });
const podWith = (cpu?: string) =>
  pod(cpu ? { containers: [{ name: 'c', image: 'i', resources: { requests: { cpu }, limits: { cpu } } }] } : {});

test('ResourceQuota charges object counts into status.used and refuses what exceeds hard', async () => {
  const { objects, p } = world({ name: 'q', spec: { hard: { configmaps: '2', 'count/secrets': '5' } } });
  await p.validate!(attrs({ resource: 'configmaps', namespace: 'ns', object: cm('a') }));
  await p.validate!(attrs({ resource: 'configmaps', namespace: 'ns', object: cm('b') }));
  assert.deepEqual(await used(objects, 'q'), { configmaps: '2' });
  const err = await rejection(p.validate!(attrs({ resource: 'configmaps', namespace: 'ns', object: cm('c') })));
  assert.equal(err.code, 403);
  assert.equal(
    err.status.message,
    'configmaps "c" is forbidden: exceeded quota: q, requested: configmaps=1, used: configmaps=2, limited: configmaps=2',
  );
});

test('ResourceQuota sums pod compute and asks pods to state what a quota limits', async () => {
  const { objects, p } = world({ name: 'compute', spec: { hard: { 'requests.cpu': '1', 'limits.cpu': '1', pods: '5' } } });
  await p.validate!(attrs({ resource: 'pods', namespace: 'ns', object: podWith('600m') }));
  assert.deepEqual(await used(objects, 'compute'), { 'requests.cpu': '600m', 'limits.cpu': '600m', pods: '1' });
  const over = await rejection(p.validate!(attrs({ resource: 'pods', namespace: 'ns', object: podWith('500m') })));
  assert.equal(
    over.status.message,
    'pods "p" is forbidden: exceeded quota: compute, requested: limits.cpu=500m,requests.cpu=500m, used: limits.cpu=600m,requests.cpu=600m, limited: limits.cpu=1,requests.cpu=1',
  );
  const unstated = await rejection(p.validate!(attrs({ resource: 'pods', namespace: 'ns', object: podWith() })));
  assert.equal(
    unstated.status.message,
    'pods "p" is forbidden: failed quota: compute: must specify limits.cpu for: c; requests.cpu for: c',
  );
});

test('ResourceQuota scopes: a BestEffort quota counts best-effort pods only and ignores other kinds', async () => {
  const { objects, p } = world({ name: 'be', spec: { hard: { pods: '1', configmaps: '0' }, scopes: ['BestEffort'] } });
  await p.validate!(attrs({ resource: 'pods', namespace: 'ns', object: podWith('100m') }));
  await p.validate!(attrs({ resource: 'configmaps', namespace: 'ns', object: cm('x') }));
  assert.equal(await used(objects, 'be'), undefined);
  await p.validate!(attrs({ resource: 'pods', namespace: 'ns', object: podWith() }));
  await rejection(p.validate!(attrs({ resource: 'pods', namespace: 'ns', object: podWith() })));
  assert.deepEqual(await used(objects, 'be'), { pods: '1' });
});

test('ResourceQuota: a lost CAS race is re-read and checked again, never double- or under-counted', async () => {
  const { objects, p } = world({ name: 'q', spec: { hard: { configmaps: '2' } } });
  let raced = false;
  objects.beforeReplace = () => {
    if (raced) return;
    raced = true;
    // Someone else charges first, between our read and our write.
    const cur = structuredClone(objects.byKey.get('/resourcequotas/ns/q')!) as {
      status?: unknown;
      metadata: { resourceVersion?: string };
    };
    cur.status = { hard: { configmaps: '2' }, used: { configmaps: '1' } };
    objects.put(RESOURCE_QUOTAS, cur as never);
  };
  await p.validate!(attrs({ resource: 'configmaps', namespace: 'ns', object: cm('mine') }));
  assert.deepEqual(await used(objects, 'q'), { configmaps: '2' });
  await rejection(p.validate!(attrs({ resource: 'configmaps', namespace: 'ns', object: cm('third') })));
});

test('ResourceQuota refunds on rollback and charges nothing on dry run; claims are charged as they grow', async () => {
  const { objects, p } = world({ name: 'q', spec: { hard: { configmaps: '5', 'requests.storage': '10Gi' } } });
  const a = attrs({ resource: 'configmaps', namespace: 'ns', object: cm('a') });
  await p.validate!(a);
  assert.deepEqual(await used(objects, 'q'), { configmaps: '1' });
  await a.rollback.revert();
  assert.deepEqual(await used(objects, 'q'), { configmaps: '0' });
  await p.validate!(attrs({ resource: 'configmaps', namespace: 'ns', object: cm('d'), dryRun: true }));
  assert.deepEqual(await used(objects, 'q'), { configmaps: '0' });
  const claim = (storage: string) => ({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: 'c', namespace: 'ns' },
    spec: { resources: { requests: { storage } } },
  });
  await p.validate!(attrs({ resource: 'persistentvolumeclaims', namespace: 'ns', object: claim('4Gi') }));
  await p.validate!(
    attrs({ operation: 'UPDATE', resource: 'persistentvolumeclaims', namespace: 'ns', object: claim('8Gi'), oldObject: claim('4Gi') }),
  );
  assert.equal((await used(objects, 'q'))?.['requests.storage'], '8Gi');
  await rejection(
    p.validate!(
      attrs({ operation: 'UPDATE', resource: 'persistentvolumeclaims', namespace: 'ns', object: claim('12Gi'), oldObject: claim('8Gi') }),
    ),
  );
});

test('ResourceQuota: writes no quota limits do not queue behind one another (their reads run concurrently)', async () => {
  const { objects } = world({ name: 'q', spec: { hard: { 'count/secrets': '5' } } });
  // Each list answers only once three are in flight: queued checks would never get there.
  let inFlight = 0;
  let release!: () => void;
  const allIn = new Promise<void>((r) => (release = r));
  const reader = {
    ...objects.reader,
    list: async (...args: Parameters<typeof objects.reader.list>) => {
      if (++inFlight === 3) release();
      await allIn;
      return objects.reader.list(...args);
    },
  };
  const p = newResourceQuota(newEnv(objects, { reader: typedReader(reader) }), undefined);
  const checks = ['a', 'b', 'c'].map((n) => p.validate!(attrs({ resource: 'configmaps', namespace: 'ns', object: cm(n) })));
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('the checks queued')), 2000)));
  await Promise.race([Promise.all(checks), timeout]);
  clearTimeout(timer);
  assert.equal(inFlight, 3);
});

test('ResourceQuota reserves each charge for its write: settled once stored, refunded only while still reserved', async () => {
  const { objects, p } = world({ name: 'q', spec: { hard: { configmaps: '5' } } });
  const quota = async () =>
    (await objects.reader.get(RESOURCE_QUOTAS, 'ns', 'q')) as {
      status?: { used?: Record<string, string> };
      metadata: { annotations?: Record<string, string> };
    };
  const reservations = async () => JSON.parse((await quota()).metadata.annotations?.[reservationsAnnotation(domain)] ?? '{}');
  const withUid = (name: string) => ({ ...cm(name), metadata: { ...cm(name).metadata, uid: `uid-${name}` } });

  const stored = attrs({ resource: 'configmaps', namespace: 'ns', object: withUid('a') });
  await p.validate!(stored);
  const [reservation] = Object.values(await reservations()) as { uid: string; used: Record<string, string> }[];
  assert.equal(reservation.uid, 'uid-a');
  assert.deepEqual(reservation.used, { configmaps: '1' });
  await stored.rollback.commit();
  assert.deepEqual(await reservations(), {});
  assert.equal((await quota()).metadata.annotations, undefined);
  assert.deepEqual((await quota()).status?.used, { configmaps: '1' });

  // A reservation someone else removed (the controller found the object, or it expired) is not
  // given back by a later rollback: the recount that removed it counted without it.
  const failed = attrs({ resource: 'configmaps', namespace: 'ns', object: withUid('b') });
  await p.validate!(failed);
  const cur = structuredClone(objects.byKey.get('/resourcequotas/ns/q')!);
  cur.metadata.annotations = {};
  cur.status = { hard: { configmaps: '5' }, used: { configmaps: '1' } };
  objects.put(RESOURCE_QUOTAS, cur);
  await failed.rollback.revert();
  assert.deepEqual((await quota()).status?.used, { configmaps: '1' });
});
