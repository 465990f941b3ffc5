import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeMessage, encodeMessage, MAX_MESSAGE_DEPTH } from '../../../../apiserver/runtime/protobuf/message-codec.js';
import { protoMessage } from '../../../../apiserver/runtime/protobuf/message-types.js';
import { ProtobufError } from '../../../../apiserver/runtime/protobuf/wire-reader.js';

const message = (name: string) => {
  const m = protoMessage(name);
  assert.ok(m, name);
  return m;
};
const SCHEMA = 'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps';

function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  return [...out, n];
}

describe('message codec', () => {
  it('round-trips the special JSON forms: times, micro-times, quantities, int-or-string, raw JSON, string arrays, inline', () => {
    const lease = { spec: { holderIdentity: 'a', acquireTime: '2024-01-02T03:04:05.123456Z', leaseDurationSeconds: 0 } };
    assert.deepEqual(
      decodeMessage(message('k8s.io.api.coordination.v1.Lease'), encodeMessage(message('k8s.io.api.coordination.v1.Lease'), lease)),
      lease,
    );
    const volume = { name: 'v', configMap: { name: 'cm', defaultMode: 420 } };
    assert.deepEqual(
      decodeMessage(message('k8s.io.api.core.v1.Volume'), encodeMessage(message('k8s.io.api.core.v1.Volume'), volume)),
      volume,
    );
    const port = { port: 80, targetPort: 'http', nodePort: 0 };
    const sp = message('k8s.io.api.core.v1.ServicePort');
    // nodePort is not a pointer and omitempty: Kubernetes' JSON leaves its zero out.
    assert.deepEqual(decodeMessage(sp, encodeMessage(sp, port)), { port: 80, targetPort: 'http' });
    const rule = { verbs: ['get'], apiGroups: [''], resources: ['pods'] };
    const pr = message('k8s.io.api.rbac.v1.PolicyRule');
    assert.deepEqual(decodeMessage(pr, encodeMessage(pr, rule)), rule);
    const user = { username: 'u', extra: { scopes: ['a', 'b'] } };
    const ui = message('k8s.io.api.authentication.v1.UserInfo');
    assert.deepEqual(decodeMessage(ui, encodeMessage(ui, user)), user);
    const rev = { metadata: { name: 'r' }, revision: 2, data: { spec: { a: [1, 'x', null] } } };
    const cr = message('k8s.io.api.apps.v1.ControllerRevision');
    assert.deepEqual(decodeMessage(cr, encodeMessage(cr, rev)), rev);
    const res = { limits: { cpu: '500m', memory: '1Gi' } };
    const rr = message('k8s.io.api.core.v1.ResourceRequirements');
    assert.deepEqual(decodeMessage(rr, encodeMessage(rr, res)), res);
  });

  it('keeps the zero of a pointer (replicas: 0, automountServiceAccountToken: false)', () => {
    const spec = { replicas: 0, selector: { matchLabels: { a: 'b' } }, template: { spec: { automountServiceAccountToken: false } } };
    const ds = message('k8s.io.api.apps.v1.DeploymentSpec');
    assert.deepEqual(decodeMessage(ds, encodeMessage(ds, spec)), spec);
  });

  it('round-trips the recursive JSONSchemaProps forms (OrArray, OrBool, OrStringArray)', () => {
    const schema = {
      type: 'object',
      properties: { list: { type: 'array', items: { type: 'string' } } },
      additionalProperties: false,
      dependencies: { a: ['b'] },
      'x-kubernetes-preserve-unknown-fields': true,
    };
    assert.deepEqual(decodeMessage(message(SCHEMA), encodeMessage(message(SCHEMA), schema)), schema);
  });

  it(`cuts recursive messages nested deeper than ${MAX_MESSAGE_DEPTH} levels (100k deep: an error, not a stack overflow)`, () => {
    // JSONSchemaProps.not (field 28) nested 100,000 times.
    const depth = 100_000;
    const tag = varint((28 << 3) | 2);
    const lengths = [0];
    for (let i = 1; i < depth; i++) lengths.push(lengths[i - 1] + tag.length + varint(lengths[i - 1]).length);
    const out: number[] = [];
    for (let i = depth - 1; i >= 0; i--) out.push(...tag, ...varint(lengths[i]));
    assert.throws(
      () => decodeMessage(message(SCHEMA), Buffer.from(out)),
      (err: unknown) => {
        assert.ok(err instanceof ProtobufError);
        assert.match(err.message, /nested deeper than 1000 levels/);
        return true;
      },
    );
  });

  it("encodes a frozen object (the watch cache's) once, for GETs and as a list item", () => {
    const cm = message('k8s.io.api.core.v1.ConfigMap');
    const list = message('k8s.io.api.core.v1.ConfigMapList');
    const frozen = Object.freeze({ metadata: Object.freeze({ name: 'a' }), data: Object.freeze({ k: 'v' }) });
    assert.equal(encodeMessage(cm, frozen), encodeMessage(cm, frozen), 'the same bytes, not re-encoded');
    const fresh = { metadata: { name: 'a' }, data: { k: 'v' } };
    assert.notEqual(encodeMessage(cm, fresh), encodeMessage(cm, fresh));
    const items = [frozen, fresh];
    assert.deepEqual(decodeMessage(list, encodeMessage(list, { metadata: {}, items })), { metadata: {}, items });
  });

  it('names fields the message does not define, and refuses wrong wire types', () => {
    const ctx = { unknownFields: [] as string[] };
    const meta = message('k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta');
    decodeMessage(meta, Buffer.from([0x0a, 1, 0x61, ...varint((99 << 3) | 0), 1]), ctx);
    assert.deepEqual(ctx.unknownFields, ['#99']);
    assert.throws(() => decodeMessage(meta, Buffer.from([0x08, 1])), /wire type 0 for a string/);
  });
});
