import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  escapeValue,
  exactName,
  parseFieldSelector,
  validateFieldSelector,
} from '../../../../apiserver/runtime/selectors/field-selector.js';
import { SelectorParseError } from '../../../../apiserver/runtime/selectors/label-selector.js';

function parseFails(selector: string, message: string): void {
  assert.throws(
    () => parseFieldSelector(selector),
    (err: unknown) => {
      assert.ok(err instanceof SelectorParseError);
      assert.equal(err.message, message);
      return true;
    },
  );
}

test('the empty selector selects everything', () => {
  for (const s of ['', ',', ',,']) {
    const sel = parseFieldSelector(s);
    assert.equal(sel.isEverything(), true);
    assert.deepEqual(sel.requirements(), []);
    assert.equal(sel.matches({}), true);
    assert.equal(sel.toString(), '');
  }
});

test('terms are parsed, sorted and printed canonically', () => {
  const sel = parseFieldSelector('status.phase!=Failed,metadata.name==web');
  assert.deepEqual(sel.requirements(), [
    { field: 'metadata.name', operator: '=', value: 'web' },
    { field: 'status.phase', operator: '!=', value: 'Failed' },
  ]);
  assert.equal(sel.toString(), 'metadata.name=web,status.phase!=Failed');
  assert.deepEqual(parseFieldSelector('a=').requirements(), [{ field: 'a', operator: '=', value: '' }]);
  assert.deepEqual(parseFieldSelector(' a = b ').requirements(), [{ field: ' a ', operator: '=', value: ' b ' }]);
});

test('values may escape backslash, comma and equals', () => {
  const sel = parseFieldSelector('a=x\\,y\\=z\\\\w,b=1');
  assert.deepEqual(sel.requirements(), [
    { field: 'a', operator: '=', value: 'x,y=z\\w' },
    { field: 'b', operator: '=', value: '1' },
  ]);
  assert.equal(sel.toString(), 'a=x\\,y\\=z\\\\w,b=1');
  assert.equal(escapeValue('a,b=c\\d'), 'a\\,b\\=c\\\\d');
  assert.deepEqual(parseFieldSelector(`a=${escapeValue('p=q,r')}`).requirements()[0].value, 'p=q,r');
});

test('matching; a missing field reads as empty', () => {
  const fields = { 'metadata.name': 'web', 'status.phase': 'Running' };
  assert.equal(parseFieldSelector('metadata.name=web').matches(fields), true);
  assert.equal(parseFieldSelector('metadata.name=web,status.phase!=Running').matches(fields), false);
  assert.equal(parseFieldSelector('metadata.name!=db').matches(fields), true);
  assert.equal(parseFieldSelector('spec.nodeName=').matches(fields), true);
  assert.equal(parseFieldSelector('spec.nodeName!=').matches(fields), false);
  assert.equal(parseFieldSelector('constructor=').matches(fields), true);
});

test('malformed selectors', () => {
  parseFails('a', "invalid selector: 'a'; can't understand 'a'");
  parseFails('a=b,c', "invalid selector: 'a=b,c'; can't understand 'c'");
  parseFails('a=b=c', 'invalid field selector: unescaped character in value: 61');
  parseFails('a==b,c!==d', 'invalid field selector: unescaped character in value: 61');
  parseFails('a=b\\,c,d=e\\f', 'invalid field selector: invalid escape sequence: \\f');
  parseFails('a=b\\', 'invalid field selector: invalid escape sequence: \\');
});

test('validateFieldSelector rejects unsupported fields', () => {
  const supported = ['metadata.name', 'metadata.namespace'];
  validateFieldSelector(parseFieldSelector('metadata.name=a,metadata.namespace!=b'), supported);
  assert.throws(() => validateFieldSelector(parseFieldSelector('metadata.name=a,spec.x=b'), supported), {
    name: 'SelectorParseError',
    message: 'field label not supported: spec.x',
  });
});

test('requiresExactMatch and exactName', () => {
  assert.equal(parseFieldSelector('metadata.name=web').requiresExactMatch('metadata.name'), 'web');
  assert.equal(parseFieldSelector('metadata.name==web,x=1').requiresExactMatch('metadata.name'), 'web');
  assert.equal(parseFieldSelector('metadata.name!=web').requiresExactMatch('metadata.name'), undefined);
  assert.equal(exactName(parseFieldSelector('metadata.name=web')), 'web');
  assert.equal(exactName(parseFieldSelector('metadata.name==a\\,b')), 'a,b');
  assert.equal(exactName(parseFieldSelector('metadata.name=web,x=1')), undefined);
  assert.equal(exactName(parseFieldSelector('metadata.namespace=web')), undefined);
  assert.equal(exactName(parseFieldSelector('')), undefined);
});
