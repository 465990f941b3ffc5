import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  LabelSelector,
  SelectorParseError,
  labelSelectorFromObject,
  newRequirement,
  parseLabelSelector,
} from '../../../../apiserver/runtime/selectors/label-selector.js';

const NAME_PART_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

function parseFails(selector: string, message: string): void {
  assert.throws(
    () => parseLabelSelector(selector),
    (err: unknown) => {
      assert.ok(err instanceof SelectorParseError, `expected SelectorParseError for ${JSON.stringify(selector)}`);
      assert.equal(err.message, message);
      return true;
    },
  );
}

test('the empty selector selects everything', () => {
  for (const s of ['', '   ', '\t\n']) {
    const sel = parseLabelSelector(s);
    assert.equal(sel.isEverything(), true);
    assert.equal(sel.toString(), '');
    assert.equal(sel.matches(undefined), true);
    assert.equal(sel.matches({ a: 'b' }), true);
  }
});

test('parses every operator and prints the canonical form sorted by key', () => {
  const cases: [string, string][] = [
    ['a=b', 'a=b'],
    ['a==b', 'a==b'],
    ['a!=b', 'a!=b'],
    ['a', 'a'],
    ['!a', '!a'],
    ['a in (y,x,x)', 'a in (x,y)'],
    ['a notin (x)', 'a notin (x)'],
    ['a>1', 'a>1'],
    ['a<2', 'a<2'],
    [' z = 1 , a , !m ', 'a,!m,z=1'],
    ['x in (foo,,baz),y,z notin ()', 'x in (,baz,foo),y,z notin ()'],
    ['a=', 'a='],
    ['example.com/app in (web)', 'example.com/app in (web)'],
    ['in in (in,notin)', 'in in (in,notin)'],
  ];
  for (const [input, canonical] of cases) assert.equal(parseLabelSelector(input).toString(), canonical, input);
  assert.deepEqual(parseLabelSelector('b in (y,x),a').requirements, [
    { key: 'a', operator: 'exists', values: [] },
    { key: 'b', operator: 'in', values: ['x', 'y'] },
  ]);
});

test('matching', () => {
  const labels = { app: 'web', tier: 'front', n: '10' };
  const yes = [
    'app=web',
    'app==web',
    'app!=db',
    'missing!=x',
    'app in (db,web)',
    'app notin (db)',
    'missing notin (x)',
    'app',
    '!missing',
    'n>9',
    'n<11',
    'app=web,tier',
  ];
  const no = [
    'app=db',
    'app!=web',
    'missing=x',
    'missing in (x)',
    'app notin (web)',
    'missing',
    '!app',
    'n>10',
    'n<10',
    'app>1',
    'missing>1',
    'app=web,!tier',
    'a in ()',
  ];
  for (const s of yes) assert.equal(parseLabelSelector(s).matches(labels), true, s);
  for (const s of no) assert.equal(parseLabelSelector(s).matches(labels), false, s);
  assert.equal(parseLabelSelector('a in ()').matches({ a: '' }), true);
  assert.equal(parseLabelSelector('a=').matches({ a: '' }), true);
  assert.equal(parseLabelSelector('toString').matches({}), false);
  assert.equal(parseLabelSelector('!toString').matches({}), true);
});

test('syntax errors name the offending token', () => {
  parseFails('a b', "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt");
  parseFails('a,', "found '', expected: identifier after ','");
  parseFails('a,,b', "found ',', expected: identifier after ','");
  parseFails('=a', "found '=', expected: !, identifier, or 'end of string'");
  parseFails('a=b c', "found 'c', expected: ',' or 'end of string'");
  parseFails('x=(', "unable to parse requirement: found '(', expected: identifier");
  parseFails('x notin', "unable to parse requirement: found '' expected: '('");
  parseFails('x in a', "unable to parse requirement: found 'a' expected: '('");
  parseFails('x in (a b)', "unable to parse requirement: found 'b', expected: ',' or ')'");
  parseFails('x in (=)', "unable to parse requirement: found '=', expected: ',', ')' or identifier");
  parseFails('x in (a,=)', "unable to parse requirement: found '=', expected: ',', or identifier");
  parseFails('x in (a', "unable to parse requirement: found '', expected: ',' or ')'");
  parseFails('!', "unable to parse requirement: found '', expected: identifier");
  parseFails('!=a', "found '!=', expected: !, identifier, or 'end of string'");
});

test('keys and values are validated', () => {
  parseFails('A_', `unable to parse requirement: <nil>: Invalid value: "A_": ${NAME_PART_MSG}`);
  parseFails('x=a_', `unable to parse requirement: values[0][x]: Invalid value: "a_": ${LABEL_VALUE_MSG}`);
  parseFails(
    'x in (a_,b_)',
    `unable to parse requirement: [values[0][x]: Invalid value: "a_": ${LABEL_VALUE_MSG}, values[1][x]: Invalid value: "b_": ${LABEL_VALUE_MSG}]`,
  );
  parseFails('x>a', `unable to parse requirement: values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer`);
  parseFails('x<-2', `unable to parse requirement: values[0][x]: Invalid value: "-2": ${LABEL_VALUE_MSG}`);
  parseFails(
    'x>99999999999999999999',
    `unable to parse requirement: values[0]: Invalid value: "99999999999999999999": for 'Gt', 'Lt' operators, the value must be an integer`,
  );
});

test('newRequirement checks the value count for the operator', () => {
  assert.throws(() => newRequirement('a', 'in', []), {
    message: "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty",
  });
  assert.throws(() => newRequirement('a', '=', ['x', 'y']), {
    message: 'values: Invalid value: []string{"x", "y"}: exact-match compatibility requires one single value',
  });
  assert.throws(() => newRequirement('a', 'exists', ['x']), {
    message: 'values: Invalid value: []string{"x"}: values set must be empty for exists and does not exist',
  });
  assert.throws(() => newRequirement('a', 'gt', ['1', '2']), {
    message: `values: Invalid value: []string{"1", "2"}: for 'Gt', 'Lt' operators, exactly one value is required`,
  });
  assert.throws(() => newRequirement('a b', 'exists', []), { message: `key: Invalid value: "a b": ${NAME_PART_MSG}` });
  assert.deepEqual(newRequirement('a', 'notin', ['x']), { key: 'a', operator: 'notin', values: ['x'] });
});

test('everything and nothing', () => {
  assert.equal(LabelSelector.everything().isEverything(), true);
  assert.equal(LabelSelector.everything().matches({}), true);
  assert.equal(LabelSelector.nothing().isEverything(), false);
  assert.equal(LabelSelector.nothing().matches({}), false);
  assert.equal(LabelSelector.nothing().toString(), '');
});

test('metav1.LabelSelector objects', () => {
  assert.equal(labelSelectorFromObject(undefined).matches({ a: 'b' }), false);
  assert.equal(labelSelectorFromObject(null).isEverything(), false);
  assert.equal(labelSelectorFromObject({}).isEverything(), true);
  assert.equal(labelSelectorFromObject({ matchLabels: {}, matchExpressions: [] }).matches({}), true);
  const sel = labelSelectorFromObject({
    matchLabels: { tier: 'front', app: 'web' },
    matchExpressions: [
      { key: 'env', operator: 'In', values: ['prod', 'dev'] },
      { key: 'canary', operator: 'DoesNotExist' },
      { key: 'zone', operator: 'Exists' },
      { key: 'old', operator: 'NotIn', values: ['true'] },
    ],
  });
  assert.equal(sel.toString(), 'app=web,!canary,env in (dev,prod),old notin (true),tier=front,zone');
  assert.equal(sel.matches({ app: 'web', tier: 'front', env: 'dev', zone: 'a' }), true);
  assert.equal(sel.matches({ app: 'web', tier: 'front', env: 'dev', zone: 'a', canary: '1' }), false);
  assert.equal(sel.matches({ app: 'web', tier: 'front', env: 'qa', zone: 'a' }), false);
  assert.equal(sel.matches({ app: 'web', tier: 'front', env: 'dev', zone: 'a', old: 'true' }), false);
});

test('metav1.LabelSelector errors', () => {
  assert.throws(() => labelSelectorFromObject({ matchExpressions: [{ key: 'a', operator: 'Foo' }] }), {
    name: 'SelectorParseError',
    message: '"Foo" is not a valid label selector operator',
  });
  assert.throws(() => labelSelectorFromObject({ matchExpressions: [{ key: 'a', operator: 'In' }] }), {
    message: "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty",
  });
  assert.throws(() => labelSelectorFromObject({ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] }), {
    message: 'values: Invalid value: []string{"x"}: values set must be empty for exists and does not exist',
  });
  assert.throws(() => labelSelectorFromObject({ matchLabels: { a: 'bad value' } }), {
    message: `values[0][a]: Invalid value: "bad value": ${LABEL_VALUE_MSG}`,
  });
});
