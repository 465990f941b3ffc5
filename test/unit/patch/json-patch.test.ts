import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  MAX_JSON_PATCH_COPY_BYTES,
  MAX_JSON_PATCH_OPERATIONS,
  MAX_PATCHED_DEPTH,
  PatchError,
  type JsonPatchOptions,
  type PatchErrorKind,
  applyJsonPatch,
  jsonMeasure,
  jsonSize,
} from '../../../apiserver/patch/json-patch.js';

function fails(doc: unknown, patch: unknown, kind: PatchErrorKind, message: string, options?: JsonPatchOptions): void {
  assert.throws(
    () => applyJsonPatch(doc, patch, options),
    (err: unknown) => {
      assert.ok(err instanceof PatchError, `expected PatchError, got ${String(err)}`);
      assert.equal(err.kind, kind);
      assert.equal(err.message, message);
      return true;
    },
  );
}

// RFC 6902, Appendix A.
test('A.1 adding an object member', () => {
  assert.deepEqual(applyJsonPatch({ foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux' }]), { baz: 'qux', foo: 'bar' });
});

test('A.2 adding an array element', () => {
  assert.deepEqual(applyJsonPatch({ foo: ['bar', 'baz'] }, [{ op: 'add', path: '/foo/1', value: 'qux' }]), { foo: ['bar', 'qux', 'baz'] });
});

test('A.3 removing an object member', () => {
  assert.deepEqual(applyJsonPatch({ baz: 'qux', foo: 'bar' }, [{ op: 'remove', path: '/baz' }]), { foo: 'bar' });
});

test('A.4 removing an array element', () => {
  assert.deepEqual(applyJsonPatch({ foo: ['bar', 'qux', 'baz'] }, [{ op: 'remove', path: '/foo/1' }]), { foo: ['bar', 'baz'] });
});

test('A.5 replacing a value', () => {
  assert.deepEqual(applyJsonPatch({ baz: 'qux', foo: 'bar' }, [{ op: 'replace', path: '/baz', value: 'boo' }]), { baz: 'boo', foo: 'bar' });
});

test('A.6 moving a value', () => {
  const doc = { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } };
  assert.deepEqual(applyJsonPatch(doc, [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }]), {
    foo: { bar: 'baz' },
    qux: { corge: 'grault', thud: 'fred' },
  });
});

test('A.7 moving an array element', () => {
  assert.deepEqual(applyJsonPatch({ foo: ['all', 'grass', 'cows', 'eat'] }, [{ op: 'move', from: '/foo/1', path: '/foo/3' }]), {
    foo: ['all', 'cows', 'eat', 'grass'],
  });
});

test('A.8 testing a value: success', () => {
  const doc = { baz: 'qux', foo: ['a', 2, 'c'] };
  const patch = [
    { op: 'test', path: '/baz', value: 'qux' },
    { op: 'test', path: '/foo/1', value: 2 },
  ];
  assert.deepEqual(applyJsonPatch(doc, patch), doc);
});

test('A.9 testing a value: error', () => {
  fails({ baz: 'qux' }, [{ op: 'test', path: '/baz', value: 'bar' }], 'test-failed', 'testing value /baz failed: test failed');
});

test('A.10 adding a nested member object', () => {
  assert.deepEqual(applyJsonPatch({ foo: 'bar' }, [{ op: 'add', path: '/child', value: { grandchild: {} } }]), {
    foo: 'bar',
    child: { grandchild: {} },
  });
});

test('A.11 ignoring unrecognized elements', () => {
  assert.deepEqual(applyJsonPatch({ foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux', xyz: 123 }]), { foo: 'bar', baz: 'qux' });
});

test('A.12 adding to a nonexistent target', () => {
  fails(
    { foo: 'bar' },
    [{ op: 'add', path: '/baz/bat', value: 'qux' }],
    'invalid',
    'add operation does not apply: doc is missing path: "/baz/bat": missing value',
  );
});

test('A.14 ~ escape ordering', () => {
  const doc = { '/': 9, '~1': 10 };
  assert.deepEqual(applyJsonPatch(doc, [{ op: 'test', path: '/~01', value: 10 }]), doc);
  assert.deepEqual(applyJsonPatch(doc, [{ op: 'add', path: '/~1', value: 1 }]), { '/': 1, '~1': 10 });
});

test('A.15 comparing strings and numbers', () => {
  fails({ '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: '10' }], 'test-failed', 'testing value /~01 failed: test failed');
});

test('A.16 adding an array value', () => {
  assert.deepEqual(applyJsonPatch({ foo: ['bar'] }, [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }]), {
    foo: ['bar', ['abc', 'def']],
  });
});

test('the input document and patch are not modified', () => {
  const doc = { a: { b: [1, 2] } };
  const value = { deep: [1] };
  const patch = [
    { op: 'add', path: '/a/b/-', value },
    { op: 'remove', path: '/a/b/0' },
  ];
  const result = applyJsonPatch(doc, patch) as { a: { b: unknown[] } };
  assert.deepEqual(doc, { a: { b: [1, 2] } });
  assert.deepEqual(result, { a: { b: [2, { deep: [1] }] } });
  (result.a.b[1] as { deep: number[] }).deep.push(2);
  assert.deepEqual(value, { deep: [1] });
});

test('a failing operation leaves no partial result behind', () => {
  const doc = { a: 1 };
  fails(
    doc,
    [
      { op: 'add', path: '/b', value: 2 },
      { op: 'remove', path: '/zzz' },
    ],
    'invalid',
    "error in remove for path: '/zzz': Unable to remove nonexistent key: zzz: missing value",
  );
  assert.deepEqual(doc, { a: 1 });
});

test('array indexes: append, insert, negative, out of range, not a number', () => {
  assert.deepEqual(applyJsonPatch({ a: [1, 2] }, [{ op: 'add', path: '/a/2', value: 3 }]), { a: [1, 2, 3] });
  assert.deepEqual(applyJsonPatch({ a: [1, 2] }, [{ op: 'add', path: '/a/-1', value: 3 }]), { a: [1, 2, 3] });
  assert.deepEqual(applyJsonPatch({ a: [1, 2] }, [{ op: 'add', path: '/a/-2', value: 3 }]), { a: [1, 3, 2] });
  assert.deepEqual(applyJsonPatch({ a: [1, 2] }, [{ op: 'remove', path: '/a/-1' }]), { a: [1] });
  assert.deepEqual(applyJsonPatch({ a: [1, 2] }, [{ op: 'replace', path: '/a/-2', value: 0 }]), { a: [0, 2] });
  fails(
    { a: [1, 2] },
    [{ op: 'add', path: '/a/3', value: 1 }],
    'invalid',
    "error in add for path: '/a/3': Unable to access invalid index: 3: invalid index referenced",
  );
  fails(
    { a: [1, 2] },
    [{ op: 'add', path: '/a/-4', value: 1 }],
    'invalid',
    "error in add for path: '/a/-4': Unable to access invalid index: -4: invalid index referenced",
  );
  fails(
    { a: [1, 2] },
    [{ op: 'add', path: '/a/x', value: 1 }],
    'invalid',
    `error in add for path: '/a/x': value was not a proper array index: 'x': strconv.Atoi: parsing "x": invalid syntax`,
  );
  fails(
    { a: [1, 2] },
    [{ op: 'remove', path: '/a/2' }],
    'invalid',
    "error in remove for path: '/a/2': Unable to access invalid index: 2: invalid index referenced",
  );
  fails(
    { a: [1, 2] },
    [{ op: 'remove', path: '/a/' }],
    'invalid',
    `error in remove for path: '/a/': strconv.Atoi: parsing "": invalid syntax`,
  );
  fails(
    { a: [] },
    [{ op: 'remove', path: '/a/99999999999999999999' }],
    'invalid',
    `error in remove for path: '/a/99999999999999999999': strconv.Atoi: parsing "99999999999999999999": value out of range`,
  );
  fails(
    { a: [1] },
    [{ op: 'replace', path: '/a/1', value: 0 }],
    'invalid',
    'replace operation does not apply: doc is missing key: /a/1: missing value',
  );
  fails(
    { a: [1] },
    [{ op: 'test', path: '/a/5', value: 0 }],
    'invalid',
    "error in test for path: '/a/5': Unable to access invalid index: 5: invalid index referenced",
  );
});

test('missing parents', () => {
  fails(
    { a: {} },
    [{ op: 'remove', path: '/a/b/c' }],
    'invalid',
    'remove operation does not apply: doc is missing path: "/a/b/c": missing value',
  );
  fails(
    { a: { b: null } },
    [{ op: 'replace', path: '/a/b/c', value: 1 }],
    'invalid',
    'replace operation does not apply: doc is missing path: /a/b/c: missing value',
  );
  fails(
    { a: 'str' },
    [{ op: 'test', path: '/a/b', value: 1 }],
    'invalid',
    'test operation does not apply: is missing path: /a/b: missing value',
  );
  fails(
    { a: [] },
    [{ op: 'add', path: '/a/0/x', value: 1 }],
    'invalid',
    'add operation does not apply: doc is missing path: "/a/0/x": missing value',
  );
  fails({}, [{ op: 'add', path: '', value: 1 }], 'invalid', 'add operation does not apply: doc is missing path: "": missing value');
});

test('replace of a missing object member adds it, as the Go library does', () => {
  assert.deepEqual(applyJsonPatch({ a: 1 }, [{ op: 'replace', path: '/b', value: 2 }]), { a: 1, b: 2 });
});

test('replace of the whole document', () => {
  assert.deepEqual(applyJsonPatch({ a: 1 }, [{ op: 'replace', path: '', value: { b: 2 } }]), { b: 2 });
  assert.deepEqual(applyJsonPatch({ a: 1 }, [{ op: 'replace', path: '', value: 'x' }]), { a: 1 });
});

test('move and copy', () => {
  assert.deepEqual(applyJsonPatch({ a: { x: [1] }, b: {} }, [{ op: 'copy', from: '/a/x', path: '/b/y' }]), {
    a: { x: [1] },
    b: { y: [1] },
  });
  assert.deepEqual(applyJsonPatch({ a: [1, 2, 3] }, [{ op: 'move', from: '/a/0', path: '/a/-' }]), { a: [2, 3, 1] });
  assert.deepEqual(applyJsonPatch({ a: 1 }, [{ op: 'copy', from: '/missing', path: '/b' }]), { a: 1, b: null });
  fails(
    { a: 1 },
    [{ op: 'move', from: '/missing', path: '/b' }],
    'invalid',
    "error in move for path: 'missing': Unable to remove nonexistent key: missing: missing value",
  );
  fails(
    { a: { b: 1 } },
    [{ op: 'move', from: '/a', path: '/a/c' }],
    'invalid',
    'move operation does not apply: doc is missing destination path: /a/c: missing value',
  );
  fails(
    { a: 1 },
    [{ op: 'move', from: '/x/y', path: '/b' }],
    'invalid',
    'move operation does not apply: doc is missing from path: /x/y: missing value',
  );
  fails(
    { a: [] },
    [{ op: 'copy', from: '/a/1', path: '/b' }],
    'invalid',
    "error in copy for from: '/a/1': Unable to access invalid index: 1: invalid index referenced",
  );
  fails(
    { a: 1 },
    [{ op: 'copy', from: '/a', path: '/x/y' }],
    'invalid',
    'copy operation does not apply: doc is missing destination path: /x/y: missing value',
  );
  fails(
    { a: 1, l: [] },
    [{ op: 'copy', from: '/a', path: '/l/3' }],
    'invalid',
    'error while adding value during copy: Unable to access invalid index: 3: invalid index referenced',
  );
});

test('test compares JSON values; null matches a missing member', () => {
  const doc = { a: { b: [1, { c: true }] }, n: null };
  assert.deepEqual(applyJsonPatch(doc, [{ op: 'test', path: '/a', value: { b: [1, { c: true }] } }]), doc);
  assert.deepEqual(applyJsonPatch(doc, [{ op: 'test', path: '/missing', value: null }]), doc);
  assert.deepEqual(applyJsonPatch(doc, [{ op: 'test', path: '/n', value: null }]), doc);
  assert.deepEqual(applyJsonPatch(doc, [{ op: 'test', path: '', value: doc }]), doc);
  fails(doc, [{ op: 'test', path: '/a', value: { b: [1, { c: true }], d: 1 } }], 'test-failed', 'testing value /a failed: test failed');
  fails(doc, [{ op: 'test', path: '/a/b', value: [{ c: true }, 1] }], 'test-failed', 'testing value /a/b failed: test failed');
  fails(doc, [{ op: 'test', path: '', value: {} }], 'test-failed', 'testing value  failed: test failed');
});

test('malformed operations are invalid (422), as Kubernetes reports them', () => {
  fails({}, [{ op: 'bogus', path: '/a' }], 'invalid', 'Unexpected kind: bogus');
  fails({}, [{ path: '/a' }], 'invalid', 'Unexpected kind: unknown');
  fails({}, [{ op: 5, path: '/a' }], 'invalid', 'Unexpected kind: unknown');
  fails({}, [null], 'invalid', 'Unexpected kind: unknown');
  fails({}, [{ op: 'add', value: 1 }], 'invalid', 'add operation failed to decode path: missing value');
  fails({}, [{ op: 'remove' }], 'invalid', 'remove operation failed to decode path: missing value');
  fails(
    {},
    [{ op: 'replace', value: 1 }],
    'invalid',
    'replace operation failed to decode path: operation missing path field: missing value',
  );
  fails(
    {},
    [{ op: 'replace', path: 3, value: 1 }],
    'invalid',
    'replace operation failed to decode path: json: cannot unmarshal number into Go value of type string',
  );
  fails({}, [{ op: 'test', value: 1 }], 'invalid', 'test operation failed to decode path: operation missing path field: missing value');
  fails({}, [{ op: 'move', path: '/a' }], 'invalid', 'move operation failed to decode from: operation, missing from field: missing value');
  fails(
    { a: 1 },
    [{ op: 'move', from: '/a' }],
    'invalid',
    'move operation failed to decode path: operation missing path field: missing value',
  );
  fails({}, [{ op: 'copy', path: '/a' }], 'invalid', 'copy operation failed to decode from: operation, missing from field: missing value');
  fails({ a: 1 }, [{ op: 'copy', from: '/a' }], 'invalid', 'copy operation failed to decode path: missing value');
});

test('an add without a value adds null, as the Go library does', () => {
  assert.deepEqual(applyJsonPatch({}, [{ op: 'add', path: '/a' }]), { a: null });
});

test('a patch that is not an array of objects is a bad request', () => {
  fails({}, { op: 'add', path: '/a', value: 1 }, 'bad-request', 'json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  fails({}, 'x', 'bad-request', 'json: cannot unmarshal string into Go value of type jsonpatch.Patch');
  fails({}, 1, 'bad-request', 'json: cannot unmarshal number into Go value of type jsonpatch.Patch');
  fails({}, [1], 'bad-request', 'json: cannot unmarshal number into Go value of type jsonpatch.Operation');
  fails({}, [[]], 'bad-request', 'json: cannot unmarshal array into Go value of type jsonpatch.Operation');
  fails({}, [true], 'bad-request', 'json: cannot unmarshal bool into Go value of type jsonpatch.Operation');
  assert.deepEqual(applyJsonPatch({ a: 1 }, null), { a: 1 });
  assert.deepEqual(applyJsonPatch({ a: 1 }, []), { a: 1 });
});

test('too many operations', () => {
  const op = { op: 'add', path: '/x', value: 'y' };
  assert.deepEqual(applyJsonPatch({}, Array(MAX_JSON_PATCH_OPERATIONS).fill(op)), { x: 'y' });
  fails(
    {},
    Array(MAX_JSON_PATCH_OPERATIONS + 1).fill(op),
    'too-large',
    'The allowed maximum operations in a JSON patch is 10000, got 10001',
  );
});

test('__proto__ is an ordinary member', () => {
  const result = applyJsonPatch({}, [{ op: 'add', path: '/__proto__', value: { polluted: true } }]) as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(result), Object.prototype);
  assert.deepEqual(Object.keys(result), ['__proto__']);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('jsonSize counts the compact JSON bytes Go writes, HTML escapes and all', () => {
  const values: unknown[] = [null, true, false, 0, -1.5, 1e21, 'ab', '', 'é€😀', { a: [1, { b: 'c' }], d: {} }, [], [[], [null]]];
  for (const v of values) assert.equal(jsonSize(v), Buffer.byteLength(JSON.stringify(v)), JSON.stringify(v));
  // Go escapes <, >, &, U+2028 and U+2029 as \u003c..., and control characters other than \n \r \t as \u00XX.
  assert.equal(jsonSize('<a&b>'), 2 + 2 + 3 * 6);
  assert.equal(jsonSize('\u2028'), 8);
  assert.equal(jsonSize('"\\\n\r\t'), 12);
  assert.equal(jsonSize('\b'), 8);
  assert.equal(jsonSize({ 'k"': 'v' }), 11);
  // A lone surrogate is written as U+FFFD (3 bytes).
  assert.equal(jsonSize('\ud800'), 5);
});

/** The 4.5 KB patch that took a worker down: 40 copies of a 1 KB annotation map into itself. */
function annotationCopies(count: number): { doc: unknown; patch: unknown[] } {
  const annotations: Record<string, string> = {};
  for (let i = 0; i < 20; i++) annotations[`k${i}`] = 'v'.repeat(40);
  const patch = Array.from({ length: count }, (_, i) => ({
    op: 'copy',
    from: '/metadata/annotations',
    path: `/metadata/annotations/c${i}`,
  }));
  return { doc: { metadata: { name: 'x', annotations } }, patch };
}

/** add /spec {"a":[0]}, then copies of /spec/a appended to itself: each doubles its size ([0], [0,[0]], ...). */
function arrayCopies(count: number): unknown[] {
  return [{ op: 'add', path: '/spec', value: { a: [0] } }, ...Array(count).fill({ op: 'copy', from: '/spec/a', path: '/spec/a/-' })];
}

test('copies may add at most MAX_JSON_PATCH_COPY_BYTES (Kubernetes: JSONPatchMaxCopyBytes), counted before copying', () => {
  assert.equal(MAX_JSON_PATCH_COPY_BYTES, 3 * 1024 * 1024);
  for (const [doc, patch] of [Object.values(annotationCopies(40)), [{}, arrayCopies(30)]] as [unknown, unknown[]][]) {
    const started = performance.now();
    assert.throws(
      () => applyJsonPatch(doc, patch),
      (err: unknown) => {
        assert.ok(err instanceof PatchError);
        assert.equal(err.kind, 'invalid');
        assert.match(
          err.message,
          /^Unable to complete the copy, the accumulated size increase of copy is \d+, exceeding the limit 3145728$/,
        );
        return true;
      },
    );
    // About 0.5 s on an idle machine for the array (3 MiB of [0,[0]] is a million small arrays to clone).
    assert.ok(performance.now() - started < 5000, `took ${performance.now() - started} ms`);
  }
  // The exact count: the k-th copy copies 2^(k+2)-1 bytes ([0] is 3, [0,[0]] is 7...): 3+7+15+31 = 56 fit in 100, 56+63 do not.
  assert.equal(jsonSize(applyJsonPatch({}, arrayCopies(4), { maxCopyBytes: 100 })), 63 + '{"spec":{"a":}}'.length);
  fails(
    {},
    arrayCopies(5),
    'invalid',
    'Unable to complete the copy, the accumulated size increase of copy is 119, exceeding the limit 100',
    { maxCopyBytes: 100 },
  );
  // Exactly at the limit is allowed; one byte more is not.
  assert.deepEqual(applyJsonPatch({ a: 'xx' }, [{ op: 'copy', from: '/a', path: '/b' }], { maxCopyBytes: 4 }), { a: 'xx', b: 'xx' });
  fails(
    { a: 'xxx' },
    [{ op: 'copy', from: '/a', path: '/b' }],
    'invalid',
    'Unable to complete the copy, the accumulated size increase of copy is 5, exceeding the limit 4',
    { maxCopyBytes: 4 },
  );
  // move and add copy nothing.
  assert.deepEqual(applyJsonPatch({ a: 'xxx' }, [{ op: 'move', from: '/a', path: '/b' }], { maxCopyBytes: 1 }), { b: 'xxx' });
});

test('a patched document nests at most MAX_PATCHED_DEPTH levels: copies into their own leaves are refused before cloning', () => {
  assert.equal(MAX_PATCHED_DEPTH, 1000);
  const measured = { a: [1, { b: [] }], c: 'x' };
  assert.deepEqual(jsonMeasure(measured), { size: JSON.stringify(measured).length, depth: 4 });
  let chain: unknown = {};
  for (let i = 0; i < 990; i++) chain = { a: chain };
  // Each copy of /spec into its own innermost object doubles the depth: 9 of them (1 MB) made 500,000 levels.
  const patch: unknown[] = [{ op: 'add', path: '/spec', value: chain }];
  let leaf = '/a'.repeat(990);
  for (let i = 0; i < 9; i++) {
    patch.push({ op: 'copy', from: '/spec', path: `/spec${leaf}/b` });
    leaf = `${leaf}/b${leaf}`;
  }
  fails({}, patch, 'invalid', 'the patched object exceeded max depth of 1000');
  // Adds nest too: each add below the last one's innermost object.
  // (The chain's innermost object is level 992 of the document; 10 more levels below it are too many.)
  let ten: unknown = {};
  for (let i = 0; i < 9; i++) ten = { a: ten };
  const adds = [
    { op: 'add', path: '/x', value: chain },
    { op: 'add', path: `/x${'/a'.repeat(990)}/b`, value: ten },
  ];
  fails({}, adds, 'invalid', 'the patched object exceeded max depth of 1000');
  assert.ok(applyJsonPatch({}, adds.slice(0, 1)));
  // At the limit exactly: the root, then /x and 998 levels below it.
  let v: unknown = {};
  for (let i = 0; i < 998; i++) v = { a: v };
  assert.ok(applyJsonPatch({}, [{ op: 'add', path: '/x', value: v }]));
  fails({}, [{ op: 'add', path: '/x', value: { a: v } }], 'invalid', 'the patched object exceeded max depth of 1000');
});
