import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PatchError, type PatchErrorKind } from '../../../apiserver/patch/json-patch.js';
import { applyStrategicMergePatch, newPatchSchemaFromTable } from '../../../apiserver/patch/strategic-merge-patch.js';

const schema = newPatchSchemaFromTable({
  'metadata.finalizers': { patchStrategy: 'merge' },
  'metadata.ownerReferences': { patchStrategy: 'merge', patchMergeKey: 'uid' },
  'spec.containers': { patchStrategy: 'merge', patchMergeKey: 'name' },
  'spec.containers.ports': { patchStrategy: 'merge', patchMergeKey: 'containerPort' },
  'spec.containers.env': { patchStrategy: 'merge', patchMergeKey: 'name' },
  'spec.initContainers': { patchStrategy: 'merge', patchMergeKey: 'name' },
  'spec.strategy': { patchStrategy: 'retainKeys' },
  'spec.volumes': { patchStrategy: 'merge,retainKeys', patchMergeKey: 'name' },
  'spec.selector': { patchStrategy: 'replace' },
  'spec.nokey': { patchStrategy: 'merge' },
  'spec.odd': { patchStrategy: 'merge,replace,retainKeys' },
  'spec.weird': { patchStrategy: 'merge,replace' },
});

const pod = {
  metadata: { name: 'p', labels: { app: 'web', tier: 'front' }, finalizers: ['a', 'b', 'c'] },
  spec: {
    containers: [
      { name: 'c1', image: 'i1', ports: [{ containerPort: 80 }, { containerPort: 81 }] },
      { name: 'c2', image: 'i2' },
    ],
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } },
    selector: { app: 'web', tier: 'front' },
    args: ['x', 'y'],
  },
};

function patched(patch: unknown, original: unknown = pod): Record<string, unknown> {
  return applyStrategicMergePatch(original, patch, schema);
}

function spec(patch: unknown): Record<string, unknown> {
  return patched({ spec: patch }).spec as Record<string, unknown>;
}

function fails(patch: unknown, kind: PatchErrorKind, message: string, original: unknown = pod): void {
  assert.throws(
    () => applyStrategicMergePatch(original, patch, schema),
    (err: unknown) => {
      assert.ok(err instanceof PatchError, `expected PatchError, got ${String(err)}`);
      assert.equal(err.kind, kind);
      assert.equal(err.message, message);
      return true;
    },
  );
}

test('maps merge recursively and null deletes', () => {
  assert.deepEqual(patched({ metadata: { labels: { tier: null, env: 'prod' }, annotations: { a: 'b' } } }).metadata, {
    name: 'p',
    labels: { app: 'web', env: 'prod' },
    finalizers: ['a', 'b', 'c'],
    annotations: { a: 'b' },
  });
  assert.deepEqual(patched({ metadata: { missing: null } }).metadata, pod.metadata);
  assert.equal(Object.hasOwn(patched({ spec: null }), 'spec'), false);
});

test('lists without a merge strategy are replaced', () => {
  assert.deepEqual(spec({ args: ['z'] }).args, ['z']);
});

test('a field changing type is replaced', () => {
  assert.deepEqual(spec({ args: 'flat' }).args, 'flat');
  assert.deepEqual(spec({ strategy: ['x'] }).strategy, ['x']);
});

test('patchStrategy replace on a map replaces it', () => {
  assert.deepEqual(spec({ selector: { app: 'db' } }).selector, { app: 'db' });
});

test('containers merge by name: changed ones merged, new ones first in patch order', () => {
  assert.deepEqual(
    spec({
      containers: [
        { name: 'c3', image: 'i3' },
        { name: 'c1', image: 'new' },
      ],
    }).containers,
    [
      { name: 'c3', image: 'i3' },
      { name: 'c1', image: 'new', ports: [{ containerPort: 80 }, { containerPort: 81 }] },
      { name: 'c2', image: 'i2' },
    ],
  );
});

test('ports merge by containerPort inside a container', () => {
  assert.deepEqual(
    spec({ containers: [{ name: 'c1', ports: [{ containerPort: 82 }, { containerPort: 80, protocol: 'TCP' }] }] }).containers,
    [
      { name: 'c1', image: 'i1', ports: [{ containerPort: 82 }, { containerPort: 80, protocol: 'TCP' }, { containerPort: 81 }] },
      { name: 'c2', image: 'i2' },
    ],
  );
});

test('$patch: delete removes list elements by merge key', () => {
  assert.deepEqual(spec({ containers: [{ name: 'c1', $patch: 'delete' }] }).containers, [{ name: 'c2', image: 'i2' }]);
  assert.deepEqual(spec({ containers: [{ name: 'c1', ports: [{ containerPort: 80, $patch: 'delete' }] }] }).containers, [
    { name: 'c1', image: 'i1', ports: [{ containerPort: 81 }] },
    { name: 'c2', image: 'i2' },
  ]);
  assert.deepEqual(spec({ containers: [{ name: 'nope', $patch: 'delete' }] }).containers, pod.spec.containers);
  fails({ spec: { containers: [{ $patch: 'delete' }] } }, 'internal', 'map: map[$patch:delete] does not contain declared merge key: name');
});

test('$patch: replace in a list makes the other elements the whole list', () => {
  assert.deepEqual(spec({ containers: [{ $patch: 'replace' }, { name: 'only', image: 'x', junk: null }] }).containers, [
    { name: 'only', image: 'x' },
  ]);
  assert.deepEqual(spec({ containers: [{ $patch: 'replace' }] }).containers, []);
});

test('$patch in a map: replace takes the map, delete empties it', () => {
  assert.deepEqual(spec({ strategy: { $patch: 'replace', type: 'Recreate' } }).strategy, { type: 'Recreate' });
  assert.deepEqual(spec({ strategy: { $patch: 'delete' } }).strategy, {});
  assert.deepEqual(patched({ $patch: 'replace', kind: 'X' }), { kind: 'X' });
});

test('unsupported $patch values', () => {
  fails({ spec: { strategy: { $patch: 'merge' } } }, 'internal', 'unknown patch type: merge in map: map[$patch:merge]');
  fails({ spec: { strategy: { $patch: 'bogus', x: 1 } } }, 'internal', 'unknown patch type: bogus in map: map[$patch:bogus x:1]');
  fails({ spec: { strategy: { $patch: 1 } } }, 'internal', 'unknown patch type: %!s(int64=1) in map: map[$patch:1]');
  fails({ spec: { containers: [{ $patch: 'merge' }] } }, 'internal', 'merging lists cannot yet be specified in the patch');
  fails(
    { spec: { containers: [{ name: 'c1', $patch: 'bogus' }] } },
    'internal',
    'unknown patch type: bogus in map: map[$patch:bogus name:c1]',
  );
});

test('primitive lists with the merge strategy are unioned', () => {
  // Kubernetes' order: patch items in patch order, a server-only item placed before the first patch item it preceded.
  assert.deepEqual((patched({ metadata: { finalizers: ['c', 'a', 'd'] } }).metadata as { finalizers: string[] }).finalizers, [
    'b',
    'c',
    'a',
    'd',
  ]);
  assert.deepEqual(
    (patched({ metadata: { finalizers: ['c', 'a'] } }, { metadata: { finalizers: ['a', 'b'] } }).metadata as { finalizers: string[] })
      .finalizers,
    ['c', 'a', 'b'],
  );
});

test('$deleteFromPrimitiveList removes values from a primitive list', () => {
  assert.deepEqual(
    (patched({ metadata: { '$deleteFromPrimitiveList/finalizers': ['b', 'x'] } }).metadata as { finalizers: string[] }).finalizers,
    ['a', 'c'],
  );
  assert.deepEqual(patched({ metadata: { '$deleteFromPrimitiveList/absent': ['b'] } }).metadata, pod.metadata);
  fails({ metadata: { $deleteFromPrimitiveList: ['b'] } }, 'bad-request', 'invalid patch format of primitive list');
  fails({ metadata: { '$deleteFromPrimitiveListX/finalizers': ['b'] } }, 'bad-request', 'invalid patch format of primitive list');
});

test('$setElementOrder orders a merged list of maps', () => {
  assert.deepEqual(
    spec({ '$setElementOrder/containers': [{ name: 'c2' }, { name: 'c1' }], containers: [{ name: 'c1', image: 'z' }] }).containers,
    [
      { name: 'c2', image: 'i2' },
      { name: 'c1', image: 'z', ports: [{ containerPort: 80 }, { containerPort: 81 }] },
    ],
  );
  const three = { spec: { containers: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] } };
  assert.deepEqual(
    (patched({ spec: { '$setElementOrder/containers': [{ name: 'c' }, { name: 'a' }] } }, three).spec as { containers: unknown[] })
      .containers,
    [{ name: 'b' }, { name: 'c' }, { name: 'a' }],
  );
});

test('$setElementOrder with $deleteFromPrimitiveList, as kubectl sends for primitive lists', () => {
  const result = patched({ metadata: { '$setElementOrder/finalizers': ['c', 'a'], '$deleteFromPrimitiveList/finalizers': ['b'] } });
  assert.deepEqual((result.metadata as { finalizers: string[] }).finalizers, ['c', 'a']);
  const added = patched({ metadata: { '$setElementOrder/finalizers': ['c', 'a', 'd'], finalizers: ['d'] } });
  assert.deepEqual((added.metadata as { finalizers: string[] }).finalizers, ['b', 'c', 'a', 'd']);
});

test('$setElementOrder for a list only in the patch', () => {
  assert.deepEqual(
    spec({
      '$setElementOrder/initContainers': [{ name: 'b' }, { name: 'a' }],
      initContainers: [
        { name: 'b', image: 'x' },
        { name: 'a', gone: null },
      ],
    }).initContainers,
    [{ name: 'b', image: 'x' }, { name: 'a' }],
  );
});

test('$setElementOrder errors', () => {
  fails({ spec: { $setElementOrder: [] } }, 'bad-request', 'invalid patch format of setElementOrder list');
  fails({ spec: { '$setElementOrder/containers': 'x' } }, 'internal', 'expected a []interface {}, but received a string');
  fails(
    { spec: { '$setElementOrder/containers': [{ name: 'c1' }], containers: [{ name: 'c2', image: 'x' }] } },
    'internal',
    "The order in patch list:\n[map[image:x name:c2]]\n doesn't match $setElementOrder list:\n[map[name:c1]]\n",
  );
  fails(
    { spec: { '$setElementOrder/containers': [{ image: 'c1' }], containers: [{ name: 'c1' }] } },
    'internal',
    'map: map[image:c1] does not contain declared merge key: name',
  );
});

test('$retainKeys clears the keys not listed', () => {
  assert.deepEqual(spec({ strategy: { $retainKeys: ['type'], type: 'Recreate' } }).strategy, { type: 'Recreate' });
  assert.deepEqual(spec({ strategy: { $retainKeys: ['type', 'rollingUpdate'], rollingUpdate: null } }).strategy, { type: 'RollingUpdate' });
  const volumes = { spec: { volumes: [{ name: 'v', hostPath: { path: '/x' } }] } };
  assert.deepEqual(
    (
      patched({ spec: { volumes: [{ name: 'v', $retainKeys: ['name', 'emptyDir'], emptyDir: {} }] } }, volumes).spec as {
        volumes: unknown[];
      }
    ).volumes,
    [{ name: 'v', emptyDir: {} }],
  );
  fails({ spec: { strategy: { $retainKeys: 'type' } } }, 'bad-request', 'invalid patch format of retainKeys');
  fails({ spec: { strategy: { $retainKeys: ['type'], other: 1 } } }, 'bad-request', 'invalid patch format of retainKeys');
});

test('unknown directives are rejected', () => {
  fails({ spec: { $bogus: 1 } }, 'bad-request', 'unknown patch directive: $bogus');
});

test('values new to the original are cleaned of nulls and directives', () => {
  const result = spec({
    newMap: { keep: 1, drop: null, sub: { $patch: 'delete' } },
    containers: [{ name: 'c9', env: [{ name: 'E', value: null }], ports: [{ containerPort: 1, $patch: 'delete' }, { containerPort: 2 }] }],
  });
  assert.deepEqual(result.newMap, { keep: 1, sub: {} });
  assert.deepEqual((result.containers as unknown[])[0], { name: 'c9', env: [{ name: 'E' }], ports: [{ containerPort: 2 }] });
});

test('list element type errors', () => {
  fails({ spec: { nokey: [['x']] } }, 'invalid', 'lists of lists are not supported', { spec: { nokey: [['y']] } });
  fails(
    { spec: { containers: ['x'] } },
    'internal',
    'list element types are not identical: [[map[image:i1 name:c1 ports:[map[containerPort:80] map[containerPort:81]]] map[image:i2 name:c2]] [x]]',
  );
  fails({ spec: { containers: [{ image: 'nokey' }] } }, 'internal', 'map: map[image:nokey] does not contain declared merge key: name');
  fails({ spec: { nokey: [{ a: 2 }] } }, 'internal', 'cannot merge lists without merge key for spec.nokey', {
    spec: { nokey: [{ a: 1 }] },
  });
  assert.deepEqual(spec({ nokey2: [{ a: 2 }] }).nokey2, [{ a: 2 }]);
});

test('unexpected patch strategies', () => {
  fails({ spec: { odd: [1] } }, 'internal', 'unexpected patch strategy: [merge replace retainKeys]', { spec: { odd: [2] } });
  fails({ spec: { weird: [1] } }, 'internal', 'unexpected patch strategy: [merge replace]', { spec: { weird: [2] } });
});

test('documents that are not objects', () => {
  fails([], 'bad-request', 'invalid JSON document');
  fails('x', 'bad-request', 'invalid JSON document');
  fails({}, 'bad-request', 'invalid JSON document', [1]);
  assert.deepEqual(applyStrategicMergePatch(null, { a: 1 }, schema), { a: 1 });
  assert.deepEqual(applyStrategicMergePatch(undefined, { a: null }, schema), {});
});

test('the inputs are not modified', () => {
  const before = structuredClone(pod);
  const patch = { spec: { '$setElementOrder/containers': [{ name: 'c2' }, { name: 'c1' }], containers: [{ name: 'c1', image: 'z' }] } };
  const patchBefore = structuredClone(patch);
  const result = patched(patch);
  assert.deepEqual(pod, before);
  assert.deepEqual(patch, patchBefore);
  (result.spec as { containers: { image: string }[] }).containers[0].image = 'mutated';
  assert.deepEqual(pod, before);
});

test('newPatchSchemaFromTable looks fields up by dotted path', () => {
  const s = newPatchSchemaFromTable({ 'spec.containers': { patchStrategy: 'merge', patchMergeKey: 'name' } });
  assert.deepEqual(s.lookup(['spec', 'containers']), { patchStrategy: 'merge', patchMergeKey: 'name' });
  assert.equal(s.lookup(['spec']), undefined);
  assert.equal(s.lookup(['toString']), undefined);
});

test('long merge lists merge in linear time: 20,000 elements on each side (44 s when each lookup scanned the list)', () => {
  const n = 20_000;
  const names = Array.from({ length: n }, (_, i) => `c${i}`);
  const original = { metadata: { finalizers: names }, spec: { containers: names.map((name) => ({ name, image: 'old' })) } };
  const patchNames = [...names.slice(0, 2), ...names.map((name) => `${name}x`)];
  const started = performance.now();
  const result = patched(
    {
      metadata: { finalizers: [...names.slice(0, 10), ...names.map((f) => `${f}x`)] },
      spec: {
        containers: patchNames.map((name, i) => (i < 2 ? { name, image: 'new' } : { name })),
        '$setElementOrder/containers': patchNames.map((name) => ({ name })),
      },
    },
    original,
  );
  const ms = performance.now() - started;
  // Patch elements in patch order, then the server-only ones in their original order.
  assert.deepEqual((result.metadata as { finalizers: string[] }).finalizers, [
    ...names.slice(0, 10),
    ...names.map((f) => `${f}x`),
    ...names.slice(10),
  ]);
  const containers = (result.spec as { containers: { name: string; image?: string }[] }).containers;
  assert.deepEqual(
    containers.map((c) => c.name),
    [...patchNames, ...names.slice(2)],
  );
  assert.deepEqual(containers.slice(0, 3), [{ name: 'c0', image: 'new' }, { name: 'c1', image: 'new' }, { name: 'c0x' }]);
  assert.ok(ms < 3000, `took ${ms} ms`);
});

test('a list of $patch: delete elements removes each keyed element in one pass', () => {
  const n = 20_000;
  const containers = Array.from({ length: n }, (_, i) => ({ name: `c${i}` }));
  const started = performance.now();
  const result = patched(
    { spec: { containers: containers.slice(1).map(({ name }) => ({ name, $patch: 'delete' })) } },
    { spec: { containers } },
  );
  assert.deepEqual((result.spec as { containers: unknown[] }).containers, [{ name: 'c0' }]);
  assert.ok(performance.now() - started < 3000);
});
