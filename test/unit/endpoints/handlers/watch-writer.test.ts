import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { WatchWriter } from '../../../../apiserver/endpoints/handlers/watch-writer.js';

/** A response whose socket takes nothing until `take()`: what was written stays in writableLength. */
function slowResponse(highWaterMark = 16) {
  const res = Object.assign(new EventEmitter(), {
    writes: [] as Buffer[],
    writableLength: 0,
    writableHighWaterMark: highWaterMark,
    ended: false,
    destroyed: false,
    write(chunk: Buffer) {
      res.writes.push(chunk);
      res.writableLength += chunk.length;
      return res.writableLength < highWaterMark;
    },
    end() {
      res.ended = true;
    },
    destroy() {
      res.destroyed = true;
    },
    /** The socket took everything: 'drain'. */
    take() {
      res.writableLength = 0;
      res.emit('drain');
    },
  });
  return res;
}

const tick = () => new Promise((r) => setImmediate(r));

test('a large frame goes out in slices of writeBytes, each a view of the shared frame, the next once the socket took the last', async () => {
  const res = slowResponse();
  const w = new WatchWriter(res, { maxBacklogBytes: 1000, writeBytes: 40 }, () => assert.fail('not too slow'));
  const frame = Buffer.alloc(100, 1);
  assert.equal(w.push(frame), false, 'more than the high-water mark waits');
  await tick();
  assert.equal(res.writes.length, 1, 'one slice at a time');
  assert.equal(res.writes[0].length, 40);
  assert.equal(res.writes[0].buffer, frame.buffer, 'not a copy');
  let drained = false;
  void w.drained().then(() => (drained = true));
  res.take();
  res.take();
  await tick();
  assert.deepEqual(
    res.writes.map((b) => b.length),
    [40, 40, 20],
  );
  assert.deepEqual(Buffer.concat(res.writes), frame);
  assert.equal(drained, false, 'the socket has not taken the last slice');
  res.take();
  await tick();
  assert.equal(drained, true);
});

test('small frames of one tick leave in one write', async () => {
  const res = slowResponse(1000);
  const w = new WatchWriter(res, { maxBacklogBytes: 1000, writeBytes: 100 }, () => assert.fail('not too slow'));
  assert.equal(w.push(Buffer.from('a\n')), true);
  assert.equal(w.push(Buffer.from('b\n')), true);
  assert.equal(res.writes.length, 0, 'written after the tick');
  await tick();
  assert.deepEqual(res.writes.map(String), ['a\nb\n']);
});

test('a client leaving more than maxBacklogBytes unread is cut off: what waits is dropped, the response ends between frames', async () => {
  const res = slowResponse();
  let unread = 0;
  const w = new WatchWriter(res, { maxBacklogBytes: 100, writeBytes: 30 }, (n) => (unread = n));
  w.push(Buffer.alloc(30));
  await tick(); // written, not taken
  w.push(Buffer.alloc(60));
  assert.equal(unread, 0, '90 bytes unread: within the bound');
  w.push(Buffer.alloc(20));
  assert.equal(unread, 110);
  assert.equal(res.ended, true);
  assert.equal(res.destroyed, false, 'no frame was cut');
  assert.equal(w.backlog, res.writableLength, 'nothing waits in the writer any more');
  res.take();
  await tick();
  assert.equal(res.writes.length, 1, 'nothing more is written');
  assert.equal(w.push(Buffer.alloc(10)), true);
  await tick();
  assert.equal(res.writes.length, 1);
});

test('one frame of any size fits; a frame cut in the middle closes the connection', async () => {
  const res = slowResponse();
  let tooSlow = false;
  const w = new WatchWriter(res, { maxBacklogBytes: 100, writeBytes: 50 }, () => (tooSlow = true));
  w.push(Buffer.alloc(500));
  await tick();
  assert.equal(tooSlow, false);
  w.push(Buffer.alloc(1));
  assert.equal(tooSlow, true);
  assert.equal(res.destroyed, true, 'half a frame must not look whole');
});

test('finish writes what waits, then ends', async () => {
  const res = slowResponse();
  const w = new WatchWriter(res, { maxBacklogBytes: 1000, writeBytes: 10 }, () => assert.fail('not too slow'));
  w.push(Buffer.from('0123456789abcdefghij'));
  w.finish();
  await tick();
  assert.equal(res.ended, false);
  res.take();
  await tick();
  assert.equal(res.ended, true);
  assert.equal(Buffer.concat(res.writes).toString(), '0123456789abcdefghij');
});
