/** The Kubernetes CEL libraries of admission policies: lists, strings, quantity, URL. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileProgram } from '../../../apiserver/runtime/cel.js';
import { kubernetesCelEnv } from '../../../apiserver/runtime/cel-kubernetes.js';
import { typeCheck } from '../../../apiserver/registry/shared/cel-schema/cel-type-check.js';
import { DYN } from '../../../apiserver/registry/shared/cel-schema/cel-types.js';

const run = (expression: string, vars: Record<string, unknown> = {}) => compileProgram(expression, kubernetesCelEnv()).program(vars);

test('every expression of each library is true', () => {
  for (const e of [
    '[1, 2, 2, 3].isSorted() && ![2, 1].isSorted()',
    '[1, 5, 3].max() == 5 && [4, 2].min() == 2 && [1.5, 2.5].sum() == 4.0',
    "['a', 'b', 'a'].indexOf('a') == 0 && ['a', 'b', 'a'].lastIndexOf('a') == 2 && [1].indexOf(9) == -1",
    "'Hello'.upperAscii() == 'HELLO' && '  x '.trim() == 'x' && 'a.b.c'.replace('.', '/') == 'a/b/c' && 'abc'.substring(1) == 'bc'",
    "quantity('1Gi').isGreaterThan(quantity('1G')) && quantity('500m').isLessThan(quantity('1'))",
    "quantity('1.5').compareTo(quantity('1500m')) == 0 && quantity('2k').asInteger() == 2000 && !quantity('1.5').isInteger()",
    "quantity('1').add(quantity('500m')).compareTo(quantity('1.5')) == 0 && quantity('3').sub(1).asInteger() == 2",
    "quantity('-2').sign() == -1 && isQuantity('10Mi') && !isQuantity('ten') && quantity('250m').asApproximateFloat() == 0.25",
    "isURL('https://example.com:8443/a%20b?x=1&x=2') && !isURL('example.com') && isURL('/only/a/path')",
    "url('https://example.com:8443/p?x=1&x=2').getScheme() == 'https' && url('https://example.com:8443/p').getHost() == 'example.com:8443'",
    "url('https://[::1]:80/').getHostname() == '::1' && url('https://example.com:8443/').getPort() == '8443'",
    "url('https://example.com/a%20b').getEscapedPath() == '/a%20b' && url('https://e.com/?x=1&x=2').getQuery()['x'] == ['1', '2']",
  ]) {
    assert.equal(run(e), true, e);
  }
});

test('a bad quantity or URL is an evaluation error, not a crash', () => {
  assert.ok(run("quantity('ten') == quantity('1')") instanceof Error);
  assert.ok(run("url('not a url').getHost() == ''") instanceof Error);
  assert.ok(run("quantity('1.5').asInteger() == 1") instanceof Error);
  assert.ok(run('[].max() == 1') instanceof Error);
});

test('the type checker knows the libraries, so policies using them compile', () => {
  const vars = { object: DYN };
  for (const e of [
    "quantity(object.spec.limit).isLessThan(quantity('1Gi'))",
    "url(object.spec.url).getScheme() == 'https'",
    '[1].isSorted()',
  ]) {
    assert.ok(!('error' in typeCheck(e, vars, kubernetesCelEnv())), e);
  }
  assert.ok('error' in typeCheck("quantity('1').nope()", vars, kubernetesCelEnv()));
});
