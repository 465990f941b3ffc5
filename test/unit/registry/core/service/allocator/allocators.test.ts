import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AllocatorError } from '../../../../../../apiserver/registry/core/service/allocator/allocator-error.js';
import { newClusterIPAllocator } from '../../../../../../apiserver/registry/core/service/allocator/cluster-ip-allocator.js';
import { newNodePortAllocator } from '../../../../../../apiserver/registry/core/service/allocator/node-port-allocator.js';
import { newServiceAllocators } from '../../../../../../apiserver/registry/core/service/allocator/service-allocators.js';
import { parseCIDR } from '../../../../../../apiserver/registry/shared/network/ip.js';
import { useTempStorage } from './temp-storage.js';

function rejectsWith(p: Promise<unknown>, reason: string, message: string, value?: string | number) {
  return assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof AllocatorError, String(err));
    assert.equal(err.reason, reason);
    assert.equal(err.message, message);
    if (value !== undefined) assert.equal(err.value, value);
    return true;
  });
}

describe('cluster IP allocator', () => {
  const storage = useTempStorage();

  it('hands out the usable addresses only, manual and automatic, never twice', async () => {
    const a = newClusterIPAllocator(parseCIDR('10.1.0.0/29')!, storage(), '/t/ranges/small');
    assert.equal(a.firstAddress, '10.1.0.1');
    const notInRange = 'provided IP is not in the valid range. The range of valid IPs is 10.1.0.0/29';
    for (const ip of ['10.1.0.0', '10.1.0.7', '10.1.0.8', 'fd00::1'])
      await rejectsWith(a.allocate(ip, false), 'NotInRange', notInRange, ip);
    await a.allocate('10.1.0.1', false);
    await rejectsWith(a.allocate('10.1.0.1', false), 'Allocated', 'provided IP is already allocated', '10.1.0.1');
    const picked = new Set<string>();
    for (let i = 0; i < 5; i++) picked.add(await a.allocateNext(false));
    assert.deepEqual([...picked].sort(), ['10.1.0.2', '10.1.0.3', '10.1.0.4', '10.1.0.5', '10.1.0.6']);
    await rejectsWith(a.allocateNext(false), 'Full', 'range is full');
    await a.release(['10.1.0.4']);
    assert.equal(await a.allocateNext(false), '10.1.0.4');
  });

  it('picks automatic addresses above the static band (the first 16 offsets of a /24) while it has room', async () => {
    const a = newClusterIPAllocator(parseCIDR('10.2.0.0/24')!, storage(), '/t/ranges/band');
    for (let i = 0; i < 20; i++) {
      const last = Number((await a.allocateNext(false)).split('.')[3]);
      assert.ok(last >= 17 && last <= 254, String(last));
    }
  });

  it('dry runs check against the stored state and keep nothing', async () => {
    const a = newClusterIPAllocator(parseCIDR('10.3.0.0/29')!, storage(), '/t/ranges/dry');
    await a.allocate('10.3.0.2', false);
    await rejectsWith(a.allocate('10.3.0.2', true), 'Allocated', 'provided IP is already allocated');
    await a.allocate('10.3.0.3', true);
    await a.allocate('10.3.0.3', false);
    const dry = await a.allocateNext(true);
    assert.ok(!['10.3.0.2', '10.3.0.3'].includes(dry));
    await a.allocate(dry, false);
  });

  it('IPv6 ranges use at most their first 65536 addresses', async () => {
    const a = newClusterIPAllocator(parseCIDR('fd00::/108')!, storage(), '/t/ranges/v6');
    assert.equal(a.firstAddress, 'fd00::1');
    await a.allocate('fd00::ffff', false);
    await rejectsWith(
      a.allocate('fd00::1:1', false),
      'NotInRange',
      'provided IP is not in the valid range. The range of valid IPs is fd00::/108',
    );
  });

  it('refuses a stored state that belongs to another range', async () => {
    await newClusterIPAllocator(parseCIDR('10.4.0.0/29')!, storage(), '/t/ranges/moved').allocateNext(false);
    const moved = newClusterIPAllocator(parseCIDR('10.5.0.0/29')!, storage(), '/t/ranges/moved');
    await rejectsWith(moved.allocateNext(false), 'RangeMismatch', 'the provided range does not match the current range');
  });

  it('adopts a missing state or one of another range, rebuilt from the addresses in use, and keeps its own', async () => {
    await newClusterIPAllocator(parseCIDR('10.7.0.0/29')!, storage(), '/t/ranges/adopt').allocate('10.7.0.2', false);
    const wider = newClusterIPAllocator(parseCIDR('10.7.0.0/28')!, storage(), '/t/ranges/adopt');
    await wider.adopt(async () => ['10.7.0.3', '10.9.9.9']);
    await rejectsWith(wider.allocate('10.7.0.3', false), 'Allocated', 'provided IP is already allocated');
    await wider.allocate('10.7.0.2', false);
    await wider.adopt(async () => assert.fail('a state of this range is not rebuilt'));
    await rejectsWith(wider.allocate('10.7.0.2', false), 'Allocated', 'provided IP is already allocated');
    const fresh = newNodePortAllocator({ base: 30000, size: 10 }, storage(), '/t/ranges/adopt-ports');
    await fresh.adopt(async () => [30001, 40000]);
    await rejectsWith(fresh.allocate({ specific: [30001], next: 0 }, false), 'Allocated', 'provided port is already allocated', 30001);
  });

  it('concurrent allocations on one store never share an address', async () => {
    const cidr = parseCIDR('10.6.0.0/26')!;
    const replicas = [0, 1, 2].map(() => newClusterIPAllocator(cidr, storage(), '/t/ranges/race'));
    const got = await Promise.all(Array.from({ length: 60 }, (_, i) => replicas[i % 3].allocateNext(false)));
    assert.equal(new Set(got).size, 60);
  });
});

describe('node port allocator', () => {
  const storage = useTempStorage();

  it('takes given and picked ports in one request, reports the first refused one', async () => {
    const a = newNodePortAllocator({ base: 30000, size: 100 }, storage(), '/t/ranges/ports');
    const picked = await a.allocate({ specific: [30001, 30002], next: 2 }, false);
    assert.equal(picked.length, 2);
    // Automatic picks start above the static band (16 ports for a range of 100).
    for (const p of picked) assert.ok(p >= 30016 && p < 30100, String(p));
    const notInRange = 'provided port is not in the valid range. The range of valid ports is 30000-30099';
    await rejectsWith(a.allocate({ specific: [30100], next: 0 }, false), 'NotInRange', notInRange, 30100);
    await rejectsWith(a.allocate({ specific: [30003, 30001], next: 0 }, false), 'Allocated', 'provided port is already allocated', 30001);
    // The refused request took nothing: 30003 is still free.
    await a.allocate({ specific: [30003], next: 0 }, false);
    await a.release([30001, 30003]);
    await a.allocate({ specific: [30001, 30003], next: 0 }, false);
  });

  it('reports a full range', async () => {
    const a = newNodePortAllocator({ base: 31000, size: 3 }, storage(), '/t/ranges/tiny');
    await a.allocate({ specific: [], next: 3 }, false);
    await rejectsWith(a.allocate({ specific: [], next: 1 }, false), 'Full', 'range is full');
  });
});

describe('service allocators', () => {
  const storage = useTempStorage();

  it('one cluster-IP allocator per configured family, keys under <prefix>/ranges', async () => {
    const al = newServiceAllocators(
      storage(),
      '/reg/',
      { clusterIPRanges: ['fd00::/112', '10.0.0.0/24'], nodePortRange: { base: 30000, size: 2768 } },
      { warn() {} },
    );
    assert.deepEqual(al.families, ['IPv6', 'IPv4']);
    await al.clusterIPs('IPv4')!.allocate('10.0.0.9', false);
    await al.clusterIPs('IPv6')!.allocate('fd00::9', false);
    await al.nodePorts.allocate({ specific: [30009], next: 0 }, false);
    const keys = (await storage().list('/reg/ranges/')).items.map((kv) => kv.key);
    assert.deepEqual(keys, ['/reg/ranges/secondaryserviceips', '/reg/ranges/serviceips', '/reg/ranges/servicenodeports']);
    const stored = JSON.parse((await storage().get('/reg/ranges/serviceips'))!.value.toString());
    assert.equal(stored.kind, 'RangeAllocation');
    assert.equal(stored.range, 'fd00::/112');
  });
});
