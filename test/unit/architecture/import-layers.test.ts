import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { readSources, upwardImports, violation } from './import-layers.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

test('no source under apiserver/, controllers/ or scripts/ imports a higher floor', () => {
  const sources = readSources(ROOT, ['apiserver', 'controllers', 'scripts']);
  assert.ok(sources.size > 300, `found only ${sources.size} sources`);
  assert.deepEqual(upwardImports(sources), []);
});

test('an upward import is found and named: file → import', () => {
  const sources = new Map([
    ['apiserver/api/bad.ts', "import type { X } from '../server/run-server.js';\nexport const y = 1;\n"],
    ['apiserver/registry/lazy.ts', "export const load = () => import('../endpoints/body.js');\n"],
    ['apiserver/storage/multi.ts', "export {\n  a,\n  b,\n} from '../registry/store.js';\n"],
    ['apiserver/endpoints/fine.ts', "import { GenericStore } from '../registry/store.js';\nimport { x } from './same.js';\n"],
  ]);
  const found = upwardImports(sources);
  assert.equal(found.length, 3, found.join('\n'));
  assert.match(found[0], /^apiserver\/api\/bad\.ts → apiserver\/server\/run-server\.ts: /);
  assert.match(found[1], /^apiserver\/registry\/lazy\.ts → apiserver\/endpoints\/body\.ts: /);
  assert.match(found[2], /^apiserver\/storage\/multi\.ts → apiserver\/registry\/store\.ts: /);
});

test('the rules between the towers', () => {
  assert.equal(violation('apiserver/admission/chain.ts', 'apiserver/fieldmanager/manager.ts'), undefined, 'same floor');
  assert.equal(violation('apiserver/cmd/apiserver.ts', 'apiserver/api/object.ts'), undefined);
  assert.ok(violation('controllers/app/x.ts', 'apiserver/registry/store.ts'));
  assert.equal(violation('controllers/app/x.ts', 'apiserver/api/object.ts'), undefined);
  assert.equal(violation('controllers/app/x.ts', 'apiserver/component-base/logger.ts'), undefined);
  assert.ok(violation('apiserver/registry/x.ts', 'apiserver/component-base/logger.ts'));
  assert.ok(violation('apiserver/server/x.ts', 'controllers/app/controller-manager.ts'));
  assert.ok(violation('apiserver/server/x.ts', 'scripts/all-in-one.ts'));
  assert.equal(violation('scripts/all-in-one.ts', 'controllers/app/controller-manager.ts'), undefined);
  assert.ok(violation('apiserver/newfolder/x.ts', 'apiserver/api/object.ts'), 'a folder on no floor is refused');
});
