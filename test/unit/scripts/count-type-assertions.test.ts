import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countAssertions, findAsExpressions } from '../../../scripts/count-type-assertions.js';

const SOURCE = `import * as fs from 'node:fs';
import { readFileSync as read, statSync } from 'node:fs';
export { fs as files };
// a comment: x as Foo
const s = 'y as Bar';
const k = ['a', 'b'] as const;
const n = (JSON.parse('1') as number) + 1;
// The body is a Status here.
const a = JSON.parse('{}') as unknown as { code: number };
const b = (JSON.parse('{}') as unknown) as string;
const c = [n as unknown as string, s as unknown as number];
export {
  read as readText,
  statSync as stat,
};
`;

test('counts assertions in code only (not the renames of import and export lists), a double cast once, and lists double casts with no comment', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'orch-assertions-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, 'apiserver', 'api', 'generated'), { recursive: true });
  mkdirSync(join(root, 'controllers'));
  mkdirSync(join(root, 'scripts'));
  writeFileSync(join(root, 'controllers', 'sample.ts'), SOURCE);
  writeFileSync(join(root, 'controllers', 'sample.test.ts'), 'const x = 1 as number;\n');
  writeFileSync(join(root, 'apiserver', 'api', 'generated', 'types.ts'), 'const x = 1 as number;\n');
  const count = countAssertions(findAsExpressions(root), (p) => readFileSync(join(root, p), 'utf8').split('\n'));
  assert.equal(count.assertions, 5);
  assert.equal(count.doubleCasts, 4);
  assert.deepEqual(count.unexplained, ['controllers/sample.ts:10', 'controllers/sample.ts:11', 'controllers/sample.ts:11']);
  assert.deepEqual([...count.perFile], [['controllers/sample.ts', 5]]);
});
