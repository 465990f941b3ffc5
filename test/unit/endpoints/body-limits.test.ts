import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  BodyLimitError,
  MAX_JSON_DEPTH,
  MAX_YAML_DEPTH,
  MAX_YAML_TOKENS,
  checkJsonDepth,
  depthOf,
  parseYamlAsJson,
  parseYamlDocuments,
} from '../../../apiserver/endpoints/body-limits.js';
import { parseDocument } from '../../../apiserver/endpoints/body.js';
import { ApiError } from '../../../apiserver/api/status.js';

const nested = (n: number) => '['.repeat(n) + ']'.repeat(n);

/** parseDocument's 400 message for a body, or 'ok'. */
function decode(text: string, type: string): string {
  try {
    parseDocument(Buffer.from(text), type);
    return 'ok';
  } catch (err) {
    assert.ok(err instanceof ApiError, String(err));
    assert.equal(err.status.code, 400);
    assert.equal(err.status.reason, 'BadRequest');
    return err.status.message ?? '';
  }
}

/** Milliseconds `fn` takes. */
function timed(fn: () => void): number {
  const started = performance.now();
  fn();
  return performance.now() - started;
}

test('checkJsonDepth: counts open arrays and objects, not brackets inside strings', () => {
  assert.doesNotThrow(() => checkJsonDepth(nested(MAX_JSON_DEPTH)));
  assert.throws(() => checkJsonDepth(nested(MAX_JSON_DEPTH + 1)), BodyLimitError);
  assert.doesNotThrow(() => checkJsonDepth(`[${'{"a":'.repeat(9)}1${'}'.repeat(9)}]`, 10));
  assert.throws(() => checkJsonDepth(`[${'{"a":'.repeat(10)}1${'}'.repeat(10)}]`, 10), /^BodyLimitError: exceeded max depth of 10$/);
  // Brackets in strings, escaped quotes and escaped backslashes before a closing quote.
  assert.doesNotThrow(() => checkJsonDepth(`["${'['.repeat(50)}", "\\"[[[[", "\\\\", {"k\\\\": "[["}]`, 2));
  assert.throws(() => checkJsonDepth('["\\\\", [[]]]', 2), BodyLimitError);
  // Siblings do not add up.
  assert.doesNotThrow(() => checkJsonDepth(`[${Array(100).fill(nested(5)).join(',')}]`, 6));
});

test('parseYamlDocuments: refuses flow and block nesting past the limit before composing', () => {
  const block = (n: number) => `${Array.from({ length: n }, (_, i) => `${' '.repeat(i)}a:`).join('\n')} x\n`;
  const compact = (n: number) => `${'- '.repeat(n)}x\n`;
  const flowMaps = (n: number) => `${'{a: '.repeat(n)}1${'}'.repeat(n)}`;
  // Keys that are collections: the value is shallow (the key is stringified), composing it is not.
  const explicitKeys = (n: number) => `${'{? '.repeat(n)}1${'}'.repeat(n)}`;
  for (const [name, make] of Object.entries({ nested, block, compact, flowMaps, explicitKeys })) {
    assert.throws(() => parseYamlDocuments(make(MAX_YAML_DEPTH + 3)), BodyLimitError, name);
    // Block nesting needs a wider indent per level: 2,000 levels are 2 MB.
    assert.throws(() => parseYamlDocuments(make(make === block ? 2000 : 100_000)), BodyLimitError, name);
  }
  for (const make of [nested, block, compact, flowMaps]) {
    const docs = parseYamlDocuments(make(MAX_YAML_DEPTH));
    assert.equal(docs.length, 1);
    assert.deepEqual(docs[0].errors, []);
    assert.equal(depthOf(docs[0].toJS(), Number.POSITIVE_INFINITY), MAX_YAML_DEPTH);
  }
  // Errors keep the library's line and column.
  const [doc] = parseYamlDocuments('a: b: c');
  assert.match(doc.errors[0].message, /at line 1, column 4/);
});

test('depthOf: stops past its limit', () => {
  assert.equal(depthOf(1, 10), 0);
  assert.equal(depthOf({}, 10), 1);
  assert.equal(depthOf({ a: [1, { b: [] }] }, 10), 4);
  assert.equal(depthOf(JSON.parse(nested(100_000)), 10), 11);
});

test('parseDocument: JSON past 1000 levels and YAML past 500 are a 400 in Kubernetes words, found without recursing', () => {
  assert.equal(MAX_JSON_DEPTH, 1000);
  assert.equal(MAX_YAML_DEPTH, 500);
  assert.equal(decode(nested(MAX_JSON_DEPTH), 'application/json'), 'ok');
  assert.equal(decode(nested(MAX_JSON_DEPTH + 1), 'application/json'), 'error decoding JSON: exceeded max depth of 1000');
  for (const type of ['application/yaml', 'application/apply-patch+yaml']) {
    assert.equal(decode(`a: ${nested(MAX_YAML_DEPTH - 1)}`, type), 'ok');
    assert.equal(decode(`a: ${nested(MAX_YAML_DEPTH)}`, type), 'error decoding YAML: exceeded max depth of 500');
  }
  // The body that held a worker 27 s (2.9 MB, 1.45M levels), and Kubernetes' 300,000 levels (600 KB).
  for (const depth of [1_450_000, 300_000]) {
    const body = nested(depth);
    for (const type of ['application/yaml', 'application/json']) {
      let message = '';
      const ms = timed(() => {
        message = decode(body, type);
      });
      assert.match(message, /^error decoding (YAML|JSON): exceeded max depth of (500|1000)$/);
      assert.ok(ms < 500, `${type} ${depth} deep took ${ms} ms`);
    }
  }
});

test('parseDocument: aliases cannot nest a YAML value past the limit', () => {
  // Each anchored list holds the previous one: 20 aliases, 25 levels each, 500 in all.
  const lines = [`- &a0 ${nested(25)}`];
  for (let i = 1; i < 21; i++) lines.push(`- &a${i} ${'['.repeat(24)}*a${i - 1}${']'.repeat(24)}`);
  assert.equal(decode(lines.join('\n'), 'application/yaml'), 'error decoding YAML: exceeded max depth of 500');
  assert.equal(decode(lines.slice(0, 10).join('\n'), 'application/yaml'), 'ok');
});

test('parseYamlDocuments: refuses more than MAX_YAML_TOKENS tokens, counted as they are read', () => {
  assert.equal(MAX_YAML_TOKENS, 250_000);
  assert.throws(() => parseYamlDocuments('- []\n'.repeat(10), MAX_YAML_DEPTH, 40), /^BodyLimitError: more than 40 YAML tokens/);
  assert.equal(parseYamlDocuments('- []\n'.repeat(5), MAX_YAML_DEPTH, 40).length, 1);
  // 3 MB of `- []` lines (6 s in the yaml library) is refused at once.
  let message = '';
  const ms = timed(() => {
    message = decode(`a:\n${'- []\n'.repeat(600_000)}`, 'application/yaml');
  });
  assert.equal(message, 'error decoding YAML: more than 250000 YAML tokens (send a body this large as JSON)');
  assert.ok(ms < 2000, `took ${ms} ms`);
});

test('parseYamlAsJson: a YAML body that is JSON is parsed as JSON, with its duplicates; anything else is left to YAML', () => {
  assert.deepEqual(parseYamlAsJson(' {"a": [1, "x", null]}\n'), { value: { a: [1, 'x', null] } });
  assert.equal(parseYamlAsJson('a: 1'), undefined);
  assert.equal(parseYamlAsJson("{a: 1, 'b': [2]}"), undefined);
  // Deeper than the YAML limit, or brackets the scan cannot tell from YAML's quoting: YAML decides.
  assert.equal(parseYamlAsJson(nested(MAX_YAML_DEPTH + 1)), undefined);
  assert.equal(parseYamlAsJson(`['${'['.repeat(600)}']`), undefined);
  assert.equal(decode(`['${'['.repeat(600)}']`, 'application/yaml'), 'ok');
  // A large JSON body sent as YAML (kubectl's server-side apply) decodes as JSON, with no token limit.
  const data: Record<string, string> = {};
  for (let i = 0; i < 100_000; i++) data[`k${i}`] = `v${i}`;
  const body = Buffer.from(JSON.stringify({ kind: 'ConfigMap', metadata: { name: 'x', labels: { a: '1' } }, data }));
  const parsed = parseDocument(body, 'application/apply-patch+yaml');
  assert.equal(Object.keys((parsed.value as { data: object }).data).length, 100_000);
  assert.deepEqual(parseDocument(Buffer.from('{"metadata": {"name": "a", "name": "b"}}'), 'application/yaml'), {
    value: { metadata: { name: 'b' } },
    duplicateFields: [],
    yamlDuplicates: ['line 1: key "name" already set in map'],
  });
});

test('parseDocument: a YAML key that is a collection prints no process warning (a client could fill the server log with one per request)', async () => {
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(w.message);
  process.on('warning', onWarning);
  try {
    for (const text of ['? [complex, key]\n: v\n', '{? {a: 1} : v, b: [}\n']) {
      try {
        parseDocument(Buffer.from(text), 'application/yaml');
      } catch {
        // A body YAML refuses is a 400 elsewhere; only the warnings matter here.
      }
    }
    await new Promise((r) => setImmediate(r));
  } finally {
    process.off('warning', onWarning);
  }
  assert.deepEqual(warnings, []);
});
