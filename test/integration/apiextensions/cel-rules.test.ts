/**
 * CEL validation rules of a CRD schema (x-orch-validations): rules on create and update with their
 * messages, messageExpression and reasons; transition rules with oldSelf (correlated through map-list
 * keys); and the CRD-side refusals: a rule that does not compile, one whose estimated cost exceeds the
 * budget, oldSelf inside an atomic list.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import type { TestClient } from '../../support/http-client.js';
import { invalidCauses } from '../../support/api-assertions.js';
import { CRDS, createServedCrd } from '../../support/crd-fixtures.js';

const SCALERS = '/apis/rules.example.com/v1/namespaces/default/scalers';

function scalerCrd(specSchema: Record<string, unknown>, name = 'scalers'): Record<string, any> {
  return {
    metadata: { name: `${name}.rules.example.com` },
    spec: {
      group: 'rules.example.com',
      scope: 'Namespaced',
      names: { plural: name, kind: name === 'scalers' ? 'Scaler' : `K${name}` },
      versions: [
        { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: specSchema } } } },
      ],
    },
  };
}

const SPEC = {
  type: 'object',
  'x-orch-validations': [
    { rule: 'self.minReplicas <= self.replicas', message: 'replicas should be greater than or equal to minReplicas' },
    {
      rule: "self.replicas <= 100 || self.mode == 'big'",
      // Kubernetes refuses string(int) here: its result has no bound, so concatenating it is estimated too costly.
      messageExpression: "'mode ' + self.mode + ' is too small'",
      reason: 'FieldValueForbidden',
    },
  ],
  properties: {
    replicas: { type: 'integer' },
    minReplicas: { type: 'integer' },
    mode: { type: 'string' },
    owner: { type: 'string', 'x-orch-validations': [{ rule: 'self == oldSelf', message: 'owner is immutable' }] },
    ports: {
      type: 'array',
      'x-orch-list-type': 'map',
      'x-orch-list-map-keys': ['name'],
      items: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          port: { type: 'integer', 'x-orch-validations': [{ rule: 'self >= oldSelf', message: 'ports only grow' }] },
        },
      },
    },
  },
};

describe('CEL validation rules', () => {
  let s: TestServer;
  let c: TestClient;

  before(async () => {
    s = await startTestServer();
    c = s.client;
    await createServedCrd(c, scalerCrd(SPEC));
  });
  after(() => s?.stop());

  it('evaluates rules on create with message, messageExpression and reason', async () => {
    const ok = await c.post(SCALERS, {
      metadata: { name: 'ok' },
      spec: { replicas: 3, minReplicas: 1, owner: 'a', ports: [{ name: 'http', port: 80 }] },
    });
    assert.equal(ok.status, 201, ok.text);
    const causes = await invalidCauses(c, 'post', SCALERS, {
      metadata: { name: 'bad' },
      spec: { replicas: 101, minReplicas: 200, mode: 'small' },
    });
    assert.deepEqual(
      causes.map((x) => [x.field, x.reason, x.message]),
      [
        ['spec', 'FieldValueInvalid', 'Invalid value: "object": replicas should be greater than or equal to minReplicas'],
        ['spec', 'FieldValueForbidden', 'Forbidden: mode small is too small'],
      ],
    );
    // A rule that fails to evaluate (a field that is not set) is an error naming the rule, not a crash.
    const absent = await invalidCauses(c, 'post', SCALERS, { metadata: { name: 'bad' }, spec: { replicas: 101, minReplicas: 1 } });
    // Kubernetes' wording (kube-apiserver 1.28.7 answers the same).
    assert.equal(
      absent[0].message,
      'Invalid value: "object": no such key: mode evaluating rule: self.replicas <= 100 || self.mode == \'big\'',
    );
  });

  it('runs transition rules against the correlated old value on update', async () => {
    const old = (await c.get(`${SCALERS}/ok`)).body;
    const owner = await c.put(`${SCALERS}/ok`, { ...old, spec: { ...old.spec, owner: 'b' } });
    assert.equal(owner.status, 422, owner.text);
    assert.match(owner.body.message, /spec\.owner: Invalid value: "string": owner is immutable/);
    const shrink = await c.put(`${SCALERS}/ok`, { ...old, spec: { ...old.spec, ports: [{ name: 'http', port: 79 }] } });
    assert.equal(shrink.status, 422, shrink.text);
    assert.match(shrink.body.message, /spec\.ports\[0\]\.port: Invalid value: "integer": ports only grow/);
    // A new key has no old value: its transition rule does not run.
    const added = await c.put(`${SCALERS}/ok`, {
      ...old,
      spec: {
        ...old.spec,
        ports: [
          { name: 'http', port: 81 },
          { name: 'https', port: 1 },
        ],
      },
    });
    assert.equal(added.status, 200, added.text);
    // Setting owner where there was none is no transition either.
    const fresh = await c.post(SCALERS, { metadata: { name: 'fresh' }, spec: { replicas: 1, minReplicas: 1 } });
    assert.equal(fresh.status, 201, fresh.text);
    const set = await c.patch(`${SCALERS}/fresh`, { spec: { owner: 'x' } }, 'application/merge-patch+json');
    assert.equal(set.status, 200, set.text);
  });

  it('refuses a CRD whose rule does not compile', async () => {
    const causes = await invalidCauses(
      c,
      'post',
      CRDS,
      scalerCrd({ type: 'object', 'x-orch-validations': [{ rule: 'self.a >' }] }, 'broken'),
    );
    assert.equal(causes[0].field, 'spec.versions[0].schema.openAPIV3Schema.properties[spec].x-orch-validations[0].rule');
    assert.match(causes[0].message, /compilation failed/);
  });

  it('type-checks rules against the schema: a comparison of different types, an undeclared field, a non-bool rule', async () => {
    const typed = (rules: Record<string, unknown>[]) =>
      scalerCrd(
        { type: 'object', properties: { replicas: { type: 'integer' }, name: { type: 'string' } }, 'x-orch-validations': rules },
        'typed',
      );
    const at = 'spec.versions[0].schema.openAPIV3Schema.properties[spec].x-orch-validations';
    const causes = await invalidCauses(
      c,
      'post',
      CRDS,
      typed([
        { rule: "self.replicas > 'a'" },
        { rule: 'self.nosuchfield == 1' },
        { rule: 'self.replicas' },
        { rule: 'self.replicas > 1', messageExpression: 'self.replicas' },
        { rule: 'self.replicas > 1', messageExpression: 'self.nope' },
      ]),
    );
    assert.deepEqual(
      causes.map((cause) => [cause.field, cause.message]),
      [
        [
          `${at}[0].rule`,
          `Invalid value: "self.replicas > 'a'": compilation failed: ERROR: <input>:1:15: found no matching overload for '_>_' applied to '(int, string)'\n | self.replicas > 'a'\n | ..............^`,
        ],
        [
          `${at}[1].rule`,
          `Invalid value: "self.nosuchfield == 1": compilation failed: ERROR: <input>:1:5: undefined field 'nosuchfield'\n | self.nosuchfield == 1\n | ....^`,
        ],
        [`${at}[2].rule`, 'Invalid value: "self.replicas": cel expression must evaluate to a bool'],
        [`${at}[3].messageExpression`, 'Invalid value: "self.replicas": messageExpression must evaluate to a string'],
        [
          `${at}[4].messageExpression`,
          `Invalid value: "self.nope": messageExpression compilation failed: ERROR: <input>:1:5: undefined field 'nope'\n | self.nope\n | ....^`,
        ],
      ],
    );
    const good = await c.post(
      CRDS,
      typed([{ rule: "self.replicas > 1 && self.name.startsWith('a')", messageExpression: "'bad ' + self.name" }]),
    );
    assert.equal(good.status, 201, good.text);
  });

  it('evaluates date-time, date, duration and byte strings as the timestamps, durations and bytes the rules were checked with', async () => {
    const spec = {
      type: 'object',
      properties: {
        start: { type: 'string', format: 'date-time' },
        day: { type: 'string', format: 'date' },
        timeout: { type: 'string', format: 'duration' },
        data: { type: 'string', format: 'byte' },
      },
      'x-orch-validations': [
        { rule: "self.start < timestamp('2030-01-01T00:00:00Z')", message: 'start before 2030' },
        { rule: "self.day.getFullYear() == 2024 && self.timeout <= duration('1h')", message: 'day in 2024, timeout at most 1h' },
        { rule: 'size(self.data) == 3', message: 'three bytes' },
      ],
    };
    await createServedCrd(c, scalerCrd(spec, 'clocks'));
    const path = '/apis/rules.example.com/v1/namespaces/default/clocks';
    const ok = await c.post(path, {
      metadata: { name: 'ok' },
      spec: { start: '2026-01-01T10:00:00Z', day: '2024-05-06', timeout: '30m', data: Buffer.from('abc').toString('base64') },
    });
    assert.equal(ok.status, 201, ok.text);
    const bad = await invalidCauses(c, 'post', path, {
      metadata: { name: 'bad' },
      spec: { start: '2031-01-01T00:00:00Z', day: '2023-05-06', timeout: '2h', data: Buffer.from('abcd').toString('base64') },
    });
    assert.deepEqual(
      bad.map((cause) => cause.message),
      [
        'Invalid value: "object": start before 2030',
        'Invalid value: "object": day in 2024, timeout at most 1h',
        'Invalid value: "object": three bytes',
      ],
    );
  });

  it('refuses rules whose estimated cost exceeds the budget as the reference kube-apiserver does, accepts them bounded', async () => {
    // The expected answers are those of kube-apiserver 1.28.7 for the same schemas.
    const costly = (bounds: { maxItems?: number; maxLength?: number }) => ({
      type: 'array',
      ...(bounds.maxItems ? { maxItems: bounds.maxItems } : {}),
      items: { type: 'string', ...(bounds.maxLength ? { maxLength: bounds.maxLength } : {}) },
      'x-orch-validations': [{ rule: 'self.all(x, self.exists(y, x == y))' }],
    });
    const hint =
      '(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)';
    const root = 'spec.versions[0].schema.openAPIV3Schema';
    const rule = `${root}.properties[spec].x-orch-validations[0].rule`;
    const messages = async (spec: Record<string, unknown>) =>
      (await invalidCauses(c, 'post', CRDS, scalerCrd(spec, 'costly'))).map((cause) => [cause.field, cause.message]);
    // Unbounded strings make each comparison cost a tenth of the longest string a request can carry.
    assert.deepEqual(await messages(costly({ maxItems: 100 })), [
      [rule, `Forbidden: estimated rule cost exceeds budget by factor of more than 100x ${hint}`],
      [rule, 'Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema'],
      [
        root,
        `Forbidden: x-orch-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 31.5x ${hint}`,
      ],
    ]);
    assert.deepEqual(await messages(costly({ maxItems: 2000, maxLength: 64 })), [
      [rule, `Forbidden: estimated rule cost exceeds budget by factor of 12.8x ${hint}`],
      [rule, 'Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema'],
      [
        root,
        `Forbidden: x-orch-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 1.280100x ${hint}`,
      ],
    ]);
    // A rule on the items of an unbounded list runs once per item that fits in a request.
    const perItem = await messages({
      type: 'array',
      items: { type: 'string', 'x-orch-validations': [{ rule: "self.matches('^[a-z]+$')" }] },
    });
    assert.deepEqual(perItem[0], [
      `${root}.properties[spec].items.x-orch-validations[0].rule`,
      `Forbidden: estimated rule cost exceeds budget by factor of more than 100x ${hint}`,
    ]);
    const bounded = await c.post(CRDS, scalerCrd(costly({ maxItems: 100, maxLength: 10 }), 'costly'));
    assert.equal(bounded.status, 201, bounded.text);
  });

  it('stops a rule whose evaluation would cost more than the per-call limit', async () => {
    const spec = {
      type: 'object',
      properties: {
        names: {
          type: 'array',
          maxItems: 1000,
          items: { type: 'string', maxLength: 8 },
          'x-orch-validations': [{ rule: 'self.all(x, self.exists_one(y, x == y))', message: 'names are unique' }],
        },
        n: { type: 'integer', 'x-orch-validations': [{ rule: 'self > 0' }] },
      },
    };
    await createServedCrd(c, scalerCrd(spec, 'uniques'));
    const path = '/apis/rules.example.com/v1/namespaces/default/uniques';
    const few = await c.post(path, { metadata: { name: 'few' }, spec: { names: ['a', 'b', 'c'] } });
    assert.equal(few.status, 201, few.text);
    const dup = await invalidCauses(c, 'post', path, { metadata: { name: 'dup' }, spec: { names: ['a', 'a'] } });
    assert.equal(dup[0].message, 'Invalid value: "array": names are unique');
    const many = Array.from({ length: 1000 }, (_, i) => `n${i}`);
    // As Kubernetes does, no further rule runs (n's would fail).
    const costly = await invalidCauses(c, 'post', path, { metadata: { name: 'many' }, spec: { names: many, n: 0 } });
    assert.equal(costly.length, 1);
    assert.deepEqual(
      [costly[0].field, costly[0].message],
      [
        'spec.names',
        'Invalid value: "array": \'operation cancelled: actual cost limit exceeded\': no further validation rules will be run due to call cost exceeds limit for rule: names are unique',
      ],
    );
  });

  it('refuses oldSelf inside an atomic list', async () => {
    const spec = {
      type: 'object',
      properties: {
        list: {
          type: 'array',
          maxItems: 10,
          items: { type: 'string', maxLength: 10, 'x-orch-validations': [{ rule: 'self == oldSelf' }] },
        },
      },
    };
    const causes = await invalidCauses(c, 'post', CRDS, scalerCrd(spec, 'atomic'));
    assert.match(
      causes[0].message,
      /oldSelf cannot be used on the uncorrelatable portion of the schema within spec\.versions\[0\]\.schema\.openAPIV3Schema\.properties\[spec\]\.properties\[list\]/,
    );
  });
});
