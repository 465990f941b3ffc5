import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../../../apiserver/api/object.js';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { deepFreeze, initialFrame, objectJson, watchFrame } from '../../../../apiserver/storage/cacher/cached-object.js';

setFlagsFromString('--expose-gc');
/** A full collection (the flag set above exposes gc to new contexts). */
const collectGarbage = runInNewContext('gc') as () => void;

const cm = (name: string): ApiObject =>
  ({
    kind: 'ConfigMap',
    apiVersion: 'v1',
    metadata: { name, namespace: 'ns', resourceVersion: '7', labels: { app: 'ünïcode' } },
    data: { greeting: 'grüße, 世界', nested: '{"a":"\\"q\\""}' },
  }) as ApiObject;

test('a cached object is encoded once: every list shares its JSON bytes', () => {
  const obj = deepFreeze(cm('a'));
  const json = objectJson(obj);
  assert.equal(json.toString(), JSON.stringify(obj));
  assert.equal(objectJson(obj), json, 'the second caller gets the same bytes');
});

test('an object that is not frozen is encoded each time, as it is now', () => {
  const obj = cm('b');
  const first = objectJson(obj);
  assert.equal(first.toString(), JSON.stringify(obj));
  obj.metadata.labels = { changed: 'yes' };
  assert.equal(objectJson(obj).toString(), JSON.stringify(obj));
});

test('the JSON and the watch frames of an object agree, whichever is asked first', () => {
  const framed = deepFreeze(cm('c'));
  const frame = watchFrame('ADDED', framed);
  assert.equal(frame.toString(), `${JSON.stringify({ type: 'ADDED', object: framed })}\n`);
  assert.equal(objectJson(framed).toString(), JSON.stringify(framed));
  assert.equal(watchFrame('MODIFIED', framed).toString(), `${JSON.stringify({ type: 'MODIFIED', object: framed })}\n`);

  const listed = deepFreeze(cm('d'));
  assert.equal(objectJson(listed).toString(), JSON.stringify(listed));
  assert.equal(watchFrame('DELETED', listed).toString(), `${JSON.stringify({ type: 'DELETED', object: listed })}\n`);
  assert.equal(watchFrame('DELETED', listed), watchFrame('DELETED', listed));
});

test('an initial ADDED frame is made from the shared JSON and held weakly: shared while alive, never kept with the object', async () => {
  const obj = deepFreeze(cm('e'));
  let first: Buffer | undefined = initialFrame(obj);
  assert.equal(first.toString(), `${JSON.stringify({ type: 'ADDED', object: obj })}\n`);
  assert.equal(initialFrame(obj), first, 'shared while some response holds it');
  const ref = new WeakRef(first);
  first = undefined;
  // Nothing else holds it: once collected, the next watch makes it again.
  await new Promise((r) => setTimeout(r, 0));
  collectGarbage();
  assert.equal(ref.deref(), undefined, 'the frame was not kept with the object');
  assert.equal(initialFrame(obj).toString(), `${JSON.stringify({ type: 'ADDED', object: obj })}\n`);
  assert.equal(objectJson(obj), objectJson(obj), 'the JSON lists use is the one shared');
  // A frame the object has (a live ADDED event sent it) is reused instead.
  const live = deepFreeze(cm('f'));
  const frame = watchFrame('ADDED', live);
  assert.equal(initialFrame(live), frame);
});

test("an initial frame in another encoding is the encoder's, and the one the object keeps when it has one", () => {
  let calls = 0;
  const encoder = { watchFrame: (type: string, o: ApiObject) => Buffer.from(`${++calls}:${type}:${o.metadata.name}`) };
  const obj = deepFreeze(cm('g'));
  const held = initialFrame(obj, encoder);
  assert.equal(held.toString(), '1:ADDED:g');
  assert.equal(initialFrame(obj, encoder), held);
  const other = deepFreeze(cm('h'));
  const kept = watchFrame('ADDED', other, encoder);
  assert.equal(initialFrame(other, encoder), kept);
});
