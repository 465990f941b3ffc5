import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../../../apiserver/api/object.js';
import { deepFreeze, objectJson, watchFrame } from '../../../../apiserver/storage/cacher/cached-object.js';

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
