import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseBool, queryBool, queryPretty } from '../../../apiserver/runtime/query-params.js';
import { parseListQuery } from '../../../apiserver/endpoints/handlers/query.js';

const q = (s: string) => new URLSearchParams(s);

test('query booleans: only 0 and false (any case) are false, as Convert_Slice_string_To_bool', () => {
  for (const v of ['1', 't', 'T', 'TRUE', 'true', 'True', 'yes', '', 'x']) assert.equal(queryBool(q(`watch=${v}`), 'watch'), true, v);
  for (const v of ['0', 'false', 'False', 'FALSE', 'fAlSe']) assert.equal(queryBool(q(`watch=${v}`), 'watch'), false, v);
  assert.equal(queryBool(q(''), 'watch'), undefined);
  assert.equal(queryBool(q('watch=False&watch=true'), 'watch'), false, 'the first value counts');
});

test('query booleans: every ListOptions boolean of the Python client (watch=True) parses', () => {
  const opts = parseListQuery(q('watch=True&allowWatchBookmarks=True'));
  assert.equal(opts.watch, true);
  assert.equal(opts.allowWatchBookmarks, true);
  assert.equal(parseListQuery(q('watch=False&allowWatchBookmarks=F')).watch, false);
});

test('pretty: strconv.ParseBool, an unparsable value is false', () => {
  for (const v of ['1', 't', 'T', 'TRUE', 'true', 'True']) assert.equal(queryPretty(q(`pretty=${v}`)), true, v);
  for (const v of ['0', 'f', 'F', 'FALSE', 'false', 'False', 'yes', '', 'tRUE']) assert.equal(queryPretty(q(`pretty=${v}`)), false, v);
  assert.equal(parseBool('constructor'), undefined);
});
