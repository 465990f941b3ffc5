import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Etcd3 } from 'etcd3';
import { LeaseManager } from '../../../../apiserver/storage/etcd3/leases.js';

/** A client whose leaseGrant records the TTLs asked for and hands out ids 1, 2, … */
function fakeClient(): { client: Etcd3; grants: number[] } {
  const grants: number[] = [];
  const leaseGrant = async (req: { TTL: number }) => {
    grants.push(req.TTL);
    return { ID: String(grants.length) };
  };
  const client = { leaseClient: { leaseGrant } };
  return { client: client as unknown as Etcd3, grants };
}

test('one lease per TTL serves the writes of its reuse window (5% of the TTL, at most 60 s), then a new one', async () => {
  const { client, grants } = fakeClient();
  let now = 0;
  const leases = new LeaseManager(client, () => now);
  assert.equal(await leases.leaseFor(3600), '1');
  now = 59_000;
  assert.equal(await leases.leaseFor(3600), '1');
  now = 60_000;
  assert.equal(await leases.leaseFor(3600), '2');
  // Granted for the TTL plus the window, so a key written late in the window still lives its TTL.
  assert.deepEqual(grants, [3660, 3660]);
});

test('leases of different TTLs are kept apart; a short TTL reuses for 5% of it', async () => {
  const { client, grants } = fakeClient();
  let now = 0;
  const leases = new LeaseManager(client, () => now);
  assert.equal(await leases.leaseFor(100), '1');
  assert.equal(await leases.leaseFor(3600), '2');
  now = 4_999;
  assert.equal(await leases.leaseFor(100), '1');
  now = 5_000;
  assert.equal(await leases.leaseFor(100), '3');
  assert.deepEqual(grants, [105, 3660, 105]);
});
