import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { importCycles, readSources, upwardImports, violation } from './import-layers.js';

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

test("no controller imports the controller manager's composition root; its binary does", () => {
  assert.match(
    violation('controllers/deployment/deployment-controller.ts', 'controllers/app/controller-manager.ts') ?? '',
    /only controllers\/app\/, controllers\/cmd\/ import/,
  );
  assert.ok(violation('controllers/controllerutil/x.ts', 'controllers/app/known-controllers.ts'));
  assert.equal(violation('controllers/cmd/controller-manager.ts', 'controllers/app/options.ts'), undefined);
  assert.equal(violation('controllers/app/known-controllers.ts', 'controllers/deployment/descriptor.ts'), undefined);
  assert.equal(violation('controllers/deployment/descriptor.ts', 'controllers/controllerutil/controller-context.ts'), undefined);
  assert.equal(violation('scripts/all-in-one.ts', 'controllers/app/options.ts'), undefined);
  // A synthetic tree: the checker names the controller that reaches up, in a static import, a type
  // import spread over lines and a lazy import alike.
  const sources = new Map([
    ['controllers/job/bad.ts', "import type { ControllerContext } from '../app/controller-context.js';\n"],
    ['controllers/ttl/multi.ts', "import type {\n  A,\n  B,\n} from '../app/options.js';\n"],
    ['controllers/podgc/lazy.ts', "export const load = () => import('../app/metrics.js');\n"],
    ['controllers/job/fine.ts', "import type { ControllerContext } from '../controllerutil/controller-context.js';\n"],
    ['controllers/cmd/entry.ts', "import { controllerManagerCommand } from '../app/options.js';\n"],
  ]);
  const found = upwardImports(sources);
  assert.deepEqual(
    found.map((f) => f.split(':')[0]),
    [
      'controllers/job/bad.ts → controllers/app/controller-context.ts',
      'controllers/ttl/multi.ts → controllers/app/options.ts',
      'controllers/podgc/lazy.ts → controllers/app/metrics.ts',
    ],
  );
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

test('no import cycle among the registry files', () => {
  const sources = readSources(ROOT, ['apiserver/registry']);
  assert.ok(sources.size > 200, `found only ${sources.size} registry sources`);
  assert.deepEqual(importCycles(sources, 'apiserver/registry/'), []);
});

test('the registry floors: generic → shared → groups → resources, groups apart', () => {
  const r = (p: string) => `apiserver/registry/${p}`;
  assert.equal(violation(r('core/pod/strategy.ts'), r('shared/pod-spec/pod-spec.ts')), undefined, 'a group imports shared');
  assert.equal(violation(r('core/pod/strategy.ts'), r('generic/store.ts')), undefined, 'a group imports the generic store');
  assert.equal(violation(r('core/pod/strategy.ts'), r('core/service/columns.ts')), undefined, 'within one group');
  assert.equal(violation(r('shared/persistent-volume/spec-validation.ts'), r('shared/pod-spec/scheduling.ts')), undefined, 'within shared');
  assert.equal(violation(r('shared/workload/status-counters.ts'), r('generic/status-subresource.ts')), undefined);
  assert.equal(violation(r('resources/apps.ts'), r('apps/deployment/strategy.ts')), undefined, 'the declarations import the groups');
  assert.match(violation(r('generic/store.ts'), r('shared/pod-spec/pod-spec.ts')) ?? '', /only ever points down/);
  assert.match(violation(r('generic/new-stores.ts'), r('resources/index.ts')) ?? '', /only ever points down/);
  assert.match(violation(r('shared/workload/workload-spec.ts'), r('apps/deployment/strategy.ts')) ?? '', /only ever points down/);
  assert.match(violation(r('apps/deployment/strategy.ts'), r('resources/apps.ts')) ?? '', /only ever points down/);
  assert.match(violation(r('batch/job/strategy.ts'), r('apps/deployment/strategy.ts')) ?? '', /lift what they share into registry\/shared/);
  assert.match(violation(r('newgroup/thing/strategy.ts'), r('core/pod/strategy.ts')) ?? '', /import each other/, 'a new folder is a group');
  assert.match(violation(r('store.ts'), r('generic/keys.ts')) ?? '', /lies flat in registry/);
  assert.match(violation(r('core/pod/strategy.ts'), r('keys.ts')) ?? '', /lies flat in registry/);
});

test('a loop through the registry floors is found: an upward import, two groups, a cycle inside a floor', () => {
  const sources = new Map([
    // The 7-file loop of the old store, in small: the store imports its read path, which imports the store back.
    [
      'apiserver/registry/generic/store.ts',
      "import { getObject } from './get.js';\nimport type { Pod } from '../shared/pod-spec/pod.js';\n",
    ],
    ['apiserver/registry/generic/get.ts', "import type { GenericStore } from './store.js';\nimport { parse } from './list-options.js';\n"],
    ['apiserver/registry/generic/list-options.ts', 'export const parse = 1;\n'],
    ['apiserver/registry/shared/pod-spec/pod.ts', "import { x } from '../../core/service/ip.js';\n"],
    ['apiserver/registry/core/service/ip.ts', "import { y } from '../../networking/ingress/status.js';\n"],
    [
      'apiserver/registry/networking/ingress/status.ts',
      "import { z } from '../../core/service/ip.js';\nimport { q } from '../../shared/pod-spec/pod.js';\n",
    ],
  ]);
  const found = upwardImports(sources);
  assert.equal(found.length, 4, found.join('\n'));
  assert.match(found[0], /^apiserver\/registry\/generic\/store\.ts → apiserver\/registry\/shared\/pod-spec\/pod\.ts: .*points down/);
  assert.match(found[1], /^apiserver\/registry\/shared\/pod-spec\/pod\.ts → apiserver\/registry\/core\/service\/ip\.ts: .*points down/);
  assert.match(
    found[2],
    /^apiserver\/registry\/core\/service\/ip\.ts → apiserver\/registry\/networking\/ingress\/status\.ts: .*import each other/,
  );
  assert.match(
    found[3],
    /^apiserver\/registry\/networking\/ingress\/status\.ts → apiserver\/registry\/core\/service\/ip\.ts: .*import each other/,
  );
  assert.deepEqual(importCycles(sources, 'apiserver/registry/'), [
    [
      'apiserver/registry/core/service/ip.ts',
      'apiserver/registry/networking/ingress/status.ts',
      'apiserver/registry/shared/pod-spec/pod.ts',
    ],
    ['apiserver/registry/generic/get.ts', 'apiserver/registry/generic/store.ts'],
  ]);
});
