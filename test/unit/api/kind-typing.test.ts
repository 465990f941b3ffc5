/**
 * What the compiler refuses (`@ts-expect-error` lines: the build fails if one of them stops being an
 * error) and accepts where an untyped object meets a generated kind. The runtime assertions only say
 * the helpers hand the same object back.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Deployment, Pod } from '../../../apiserver/api/generated/types.js';
import { type ApiObject, asApiObject, asKind, type KindObject } from '../../../apiserver/api/object.js';

const takesPod = (pod: Pod): string | undefined => pod.metadata.name;

test('an untyped object is refused where a kind is expected, and taken through asKind', () => {
  const plain: ApiObject = { metadata: { name: 'p' } };
  // @ts-expect-error an ApiObject's kind is any string, a Pod's is 'Pod'
  const pod: Pod = plain;
  // @ts-expect-error the same as an argument
  takesPod(plain);
  const record: Record<string, unknown> & KindObject = { metadata: {} };
  // @ts-expect-error a record of unknown fields is no Pod either
  takesPod(record);
  // @ts-expect-error nor an object of another kind
  const fromDeployment: Pod = { metadata: {}, kind: 'Deployment' };
  const deployment: Deployment = { metadata: { name: 'd' } };
  // @ts-expect-error nor a typed object of another kind (it has no index signature, and the wrong kind)
  takesPod(deployment);

  assert.equal(takesPod(asKind<Pod>(plain)), 'p');
  assert.equal(asKind<Pod>(plain), plain);
  assert.equal(takesPod(asKind<Pod>(record)), undefined);
  void [pod, fromDeployment];
});

test('a literal of the kind needs no helper; a kind passes where any object is taken through asApiObject', () => {
  const pod: Pod = { kind: 'Pod', metadata: { name: 'p' } };
  const untyped: Pod = { metadata: { name: 'p' } };
  assert.equal(takesPod(pod), 'p');
  assert.equal(takesPod(untyped), 'p');
  const anyKind: KindObject = pod;
  // @ts-expect-error a Pod has no index signature: it becomes an ApiObject only through asApiObject
  const asUntyped: ApiObject = pod;
  assert.equal(asApiObject(anyKind), pod);
  void asUntyped;
});
