/**
 * Type checking of CRD validation rules against the schema, with cel-go's messages and positions (the
 * expected texts are what the reference kube-apiserver 1.28.7 answers for the same rules).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { typeCheck } from '../../../../../apiserver/registry/shared/cel-schema/cel-type-check.js';
import { celTypeName, schemaCelType, type CelT } from '../../../../../apiserver/registry/shared/cel-schema/cel-types.js';

const SPEC = {
  type: 'object',
  properties: {
    replicas: { type: 'integer' },
    ratio: { type: 'number' },
    name: { type: 'string' },
    enabled: { type: 'boolean' },
    when: { type: 'string', format: 'date-time' },
    timeout: { type: 'string', format: 'duration' },
    data: { type: 'string', format: 'byte' },
    tags: { type: 'array', items: { type: 'string' } },
    labels: { type: 'object', additionalProperties: { type: 'string' } },
    port: { 'x-orch-int-or-string': true },
    'not-an-identifier': { type: 'string' },
    items: { type: 'array', items: { type: 'object', properties: { n: { type: 'integer' } } } },
    free: { type: 'object', 'x-orch-preserve-unknown-fields': true },
  },
};

const self = schemaCelType(SPEC, 'x-orch-') as CelT;

function typeOf(rule: string): string {
  const out = typeCheck(rule, { self, oldSelf: self });
  return 'error' in out ? out.error : celTypeName(out.type);
}

describe('CEL rule types from the schema', () => {
  it('types each schema node as Kubernetes declares it', () => {
    assert.equal(typeOf('self.replicas'), 'int');
    assert.equal(typeOf('self.ratio'), 'double');
    assert.equal(typeOf('self.name'), 'string');
    assert.equal(typeOf('self.enabled'), 'bool');
    assert.equal(typeOf('self.when'), 'google.protobuf.Timestamp');
    assert.equal(typeOf('self.timeout'), 'google.protobuf.Duration');
    assert.equal(typeOf('self.data'), 'bytes');
    assert.equal(typeOf('self.tags'), 'list(string)');
    assert.equal(typeOf('self.labels'), 'map(string, string)');
    assert.equal(typeOf('self.port'), 'dyn');
    assert.equal(typeOf('self.items[0].n'), 'int');
  });

  it('gives the root of a resource apiVersion, kind, metadata.name and metadata.generateName', () => {
    const root = schemaCelType({ type: 'object', properties: { spec: SPEC } }, 'x-orch-', true) as CelT;
    const check = (rule: string) => typeCheck(rule, { self: root });
    const ok = check("self.metadata.name.startsWith('a') && self.kind == 'K' && self.apiVersion != ''");
    assert.equal('type' in ok && ok.type.kind, 'bool');
    assert.match((check('self.metadata.namespace == "x"') as { error: string }).error, /undefined field 'namespace'/);
  });

  it('accepts well-typed rules', () => {
    for (const rule of [
      'self.replicas > 1 && self.name.startsWith("a")',
      "self.tags.all(t, t.startsWith('a'))",
      'self.items.all(i, i.n > 1)',
      "self.labels.all(k, self.labels[k] == 'x')",
      'size(self.tags) < 3 && self.name.size() > 1',
      'self.port > 1 || type(self.port) == string',
      'self.items.map(i, i.n).all(n, n > 0)',
      'self.items.filter(i, i.n > 0).size() == 1',
      "self.when < timestamp('2020-01-01T00:00:00Z')",
      "self.timeout > duration('1s')",
      'has(self.name) && has(self.free)',
      "self.tags.exists_one(t, t == 'a') && 'a' in self.labels",
      'double(self.replicas) > self.ratio',
      'self == oldSelf && self.tags == oldSelf.tags',
      '[1, 2].exists(x, x == self.replicas)',
    ])
      assert.equal(typeOf(rule), 'bool', rule);
  });

  it('refuses a comparison of different types at the operator', () => {
    assert.equal(
      typeOf("self.replicas > 'a'"),
      "ERROR: <input>:1:15: found no matching overload for '_>_' applied to '(int, string)'\n | self.replicas > 'a'\n | ..............^",
    );
    assert.equal(
      typeOf('self.replicas == 1.0'),
      "ERROR: <input>:1:15: found no matching overload for '_==_' applied to '(int, double)'\n | self.replicas == 1.0\n | ..............^",
    );
  });

  it('refuses a field the schema does not declare, at its dot', () => {
    assert.equal(typeOf('self.nosuchfield == 1'), "ERROR: <input>:1:5: undefined field 'nosuchfield'\n | self.nosuchfield == 1\n | ....^");
    assert.match(typeOf('self.items.all(i, i.m > 1)'), /^ERROR: <input>:1:20: undefined field 'm'/);
    assert.match(typeOf('self.free.anything == 1'), /undefined field 'anything'/);
    assert.match(typeOf("self.not-an-identifier == 'a'"), /undefined field 'not'/);
  });

  it('refuses methods and functions at their parenthesis', () => {
    assert.equal(
      typeOf("self.replicas.startsWith('a')"),
      "ERROR: <input>:1:25: found no matching overload for 'startsWith' applied to 'int.(string)'\n | self.replicas.startsWith('a')\n | ........................^",
    );
    assert.match(typeOf('self.foo(1)'), /^ERROR: <input>:1:9: undeclared reference to 'foo' \(in container ''\)/);
    assert.match(typeOf('size(self) > 1'), /^ERROR: <input>:1:5: found no matching overload for 'size' applied to '\(object\)'/);
    assert.match(
      typeOf("self.name.matches('^a') ? 1 : 'x'"),
      /^ERROR: <input>:1:25: found no matching overload for '_\?_:_' applied to '\(bool, int, string\)'/,
    );
  });

  it('refuses selection on a scalar and unknown variables', () => {
    assert.match(typeOf('self.tags.all(t, t.m > 1)'), /^ERROR: <input>:1:19: type 'primitive:STRING' does not support field selection/);
    assert.match(typeOf('other > 1'), /undeclared reference to 'other'/);
    assert.match(typeOf('self.replicas.all(x, x > 1)'), /cannot be the range of a comprehension/);
  });

  it('formats a syntax error with the source line and a caret', () => {
    assert.match(typeOf('self.replicas >'), /^ERROR: <input>:1:15: .*\n \| self.replicas >\n \| \.{14}\^$/);
  });
});
