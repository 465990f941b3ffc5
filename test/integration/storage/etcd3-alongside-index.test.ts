/**
 * etcd's index of ledger writes (storage/etcd3/alongside-index.ts) names its entries by the writing
 * process's clock, newest first, so a page is a range etcd stops at its limit. Replicas' clocks
 * differ: a write named by a clock an hour behind sorts among old entries. The page must then list
 * only writes it can vouch for (the alongside key's version running down by one a write), newest
 * first, and say it is incomplete, never skip a write.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { Etcd3 } from 'etcd3';
import { indexPrefix } from '../../../apiserver/storage/etcd3/alongside-index.js';
import { newEtcdStorage } from '../../../apiserver/storage/etcd3/index.js';
import { alongsideKey } from '../../../apiserver/storage/interfaces.js';
import { useEtcd } from '../../support/etcd.js';

const etcd = useEtcd();

test('etcd alongside index: a write named by a clock behind ends the page there, incomplete; pages further back read every write', async () => {
  const storage = newEtcdStorage({ endpoints: [etcd()] });
  const raw = new Etcd3({ hosts: etcd() });
  try {
    const key = `/skew-${randomBytes(4).toString('hex')}/obj`;
    const side = alongsideKey(key);
    const revisions: number[] = [];
    const indexed = (i: number) => ({ alongside: { key: side, value: Buffer.from(`r${i}`), indexSeconds: 3600 } });
    let kv = await storage.create(key, Buffer.from('0'), indexed(0));
    revisions.push(kv.modRevision);
    for (let i = 1; i < 40; i++) {
      kv = await storage.update(key, Buffer.from(String(i)), kv.modRevision, indexed(i));
      revisions.push(kv.modRevision);
    }
    // Three writes by a replica whose clock is an hour behind: its entries sort after every other.
    const behind = String(10 ** 13 - 1 - (Date.now() - 3_600_000)).padStart(13, '0');
    for (let i = 40; i < 43; i++) {
      const res = await raw.kv.txn({
        success: [
          { request_put: { key: Buffer.from(key), value: Buffer.from(String(i)) } },
          { request_put: { key: Buffer.from(side), value: Buffer.from(`r${i}`) } },
          { request_put: { key: Buffer.from(`${indexPrefix(side)}!${behind}0000000${i}skewed`), value: Buffer.alloc(0) } },
        ],
      });
      revisions.push(Number(res.header.revision));
    }
    for (let i = 43; i < 45; i++) {
      kv = await storage.update(key, Buffer.from(String(i)), revisions.at(-1)!, indexed(i));
      revisions.push(kv.modRevision);
    }
    const newestFirst = [...revisions].reverse();
    const page = await storage.alongsideHistory(side, key, { atOrBefore: newestFirst[0], limit: 10 });
    const listed = page.writes.map((w) => w.alongside.modRevision);
    // The two newest writes are vouched for; the replica behind's three are not among the entries read.
    assert.deepEqual(listed, newestFirst.slice(0, 2));
    assert.equal(page.complete, false);
    assert.deepEqual(
      page.writes.map((w) => [w.alongside.value.toString(), w.owner?.value.toString()]),
      [
        ['r44', '44'],
        ['r43', '43'],
      ],
    );
    // From below the skewed writes (a page further back: etcd sorts), every write, complete.
    const back = await storage.alongsideHistory(side, key, { atOrBefore: newestFirst[2], limit: 10 });
    assert.deepEqual(
      back.writes.map((w) => w.alongside.modRevision),
      newestFirst.slice(2, 12),
    );
    assert.equal(back.complete, true);
    // With no clock behind, the newest page is read from the range alone and is whole.
    const other = `${key}-b`;
    const otherSide = alongsideKey(other);
    let o = await storage.create(other, Buffer.from('0'), { alongside: { key: otherSide, value: Buffer.from('c'), indexSeconds: 3600 } });
    const mine = [o.modRevision];
    for (let i = 1; i < 30; i++) {
      o = await storage.update(other, Buffer.from(String(i)), o.modRevision, {
        alongside: { key: otherSide, value: Buffer.from(`u${i}`), indexSeconds: 3600 },
      });
      mine.unshift(o.modRevision);
    }
    const whole = await storage.alongsideHistory(otherSide, other, { atOrBefore: mine[0], limit: 50 });
    assert.deepEqual(
      whole.writes.map((w) => w.alongside.modRevision),
      mine,
    );
    assert.equal(whole.complete, true);
  } finally {
    raw.close();
    await storage.close();
  }
});
