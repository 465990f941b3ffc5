import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject, WatchEvent } from '../../../../apiserver/api/object.js';
import type { ResourceDef } from '../../../../apiserver/api/resource.js';
import { convertingSink, MAX_PENDING_CONVERSIONS } from '../../../../apiserver/registry/generic/converting-sink.js';

/** A kind whose conversion waits until released, and marks what it converted. */
function slowKind() {
  let release: () => void = () => {};
  let gate = new Promise<void>((r) => (release = r));
  const def = {
    kind: 'Widget',
    apiVersion: 'example.orch.io/v2',
    batchConversion: async (objs: ApiObject[]) => {
      await gate;
      return objs.map((o) => ({ ...o, metadata: { ...o.metadata, labels: { converted: 'yes' } } }));
    },
  } as unknown as ResourceDef;
  return {
    def,
    release: () => {
      release();
      gate = Promise.resolve();
    },
  };
}

const added = (name: string): WatchEvent => ({
  type: 'ADDED',
  object: { kind: 'Widget', apiVersion: 'example.orch.io/v1', metadata: { name } },
});

test('tells the sender to wait once many events wait for their conversion, and drained() resolves after they went out in order', async () => {
  const { def, release } = slowKind();
  const out: WatchEvent[] = [];
  const sink = convertingSink(def, { send: (e) => out.push(e), close: () => {}, drained: () => Promise.resolve() });
  const answers: unknown[] = [];
  for (let i = 0; i < MAX_PENDING_CONVERSIONS; i++) answers.push(sink.send(added(`w${i}`)));
  assert.ok(answers.slice(0, -1).every((a) => a === true));
  assert.equal(answers.at(-1), false, 'the last one fills the queue');
  let drained = false;
  const waiting = sink.drained!().then(() => (drained = true));
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(drained, false, 'nothing converted yet');
  release();
  await waiting;
  assert.equal(out.length, MAX_PENDING_CONVERSIONS);
  assert.deepEqual(
    out.map((e) => (e.object as ApiObject).metadata.name),
    Array.from({ length: MAX_PENDING_CONVERSIONS }, (_, i) => `w${i}`),
  );
  assert.ok(
    out.every(
      (e) => (e.object as ApiObject).metadata.labels?.converted === 'yes' && (e.object as ApiObject).apiVersion === 'example.orch.io/v2',
    ),
  );
  assert.equal(sink.send(added('after')), true, 'room again');
});
