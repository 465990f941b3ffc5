import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { expandScript, loadScripts, resolveRefs } from '../../../../scripts/compare/script.js';
import { isGoZero, LISTED, listedReason } from '../../../../scripts/compare/listed.js';

test('references resolve against earlier answers: whole values, spliced and URL-encoded in paths', () => {
  const answers = new Map<string, unknown>([['get', { metadata: { name: 'a', resourceVersion: '12', continue: 'x=y' } }]]);
  assert.deepEqual(resolveRefs('{{get}}', answers), answers.get('get'));
  assert.equal(resolveRefs('/x?rv={{get.metadata.resourceVersion}}&c={{get.metadata.continue}}', answers, true), '/x?rv=12&c=x%3Dy');
  assert.deepEqual(resolveRefs({ a: ['{{get.metadata.name}}'] }, answers), { a: ['a'] });
  assert.throws(() => resolveRefs('{{missing.x}}', answers), /no earlier step missing/);
});

test('a resolved whole value is a copy: a PUT body never changes the stored answer', () => {
  const answers = new Map<string, unknown>([['get', { metadata: { name: 'a' } }]]);
  const body = resolveRefs('{{get}}', answers) as { metadata: { name: string } };
  body.metadata.name = 'changed';
  assert.equal((answers.get('get') as { metadata: { name: string } }).metadata.name, 'a');
});

test('a kinds block expands into the same sequence per kind, after the namespace and its default ServiceAccount', () => {
  const script = expandScript({
    name: 's',
    namespace: 'n',
    kinds: [
      {
        path: '/api/v1/namespaces/{{ns}}/configmaps',
        object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } },
        invalid: { data: { 'bad key': 'x' } },
      },
    ],
  });
  assert.deepEqual(
    script.steps.map((s) => `${s.id} ${s.method}`),
    [
      'namespace POST',
      'default-serviceaccount POST',
      'configmap-create-invalid POST',
      'configmap-create POST',
      'configmap-create-again POST',
      'configmap-get GET',
      'configmap-list GET',
      'configmap-update PUT',
      'configmap-patch PATCH',
      'configmap-apply PATCH',
      'configmap-watch GET',
      'configmap-delete DELETE',
      'configmap-get-deleted GET',
      'configmap-delete-again DELETE',
    ],
  );
  const invalid = script.steps.find((s) => s.id === 'configmap-create-invalid')!;
  assert.deepEqual(invalid.body, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { 'bad key': 'x' } });
  assert.equal(script.steps.find((s) => s.id === 'configmap-get')!.path, '/api/v1/namespaces/n/configmaps/c');
});

test('two steps with one id are refused', () => {
  assert.throws(
    () =>
      expandScript({
        name: 's',
        steps: [
          { id: 'a', path: '/x' },
          { id: 'a', path: '/y' },
        ],
      }),
    /two steps are named a/,
  );
});

test('the checked-in scripts load, and each listed rule names its reason', () => {
  const scripts = loadScripts(fileURLToPath(new URL('../../../../../scripts/compare/scripts/', import.meta.url)));
  assert.ok(scripts.length >= 5);
  assert.ok(scripts.reduce((n, s) => n + s.steps.length, 0) > 300);
  for (const rule of LISTED) assert.ok(rule.reason.length > 10);
  assert.equal(listedReason('nothing', 'nothing', { path: 'status', orch: 1, reference: 2 }), undefined);
});

test('Go zero values are listed only where orch leaves the field out', () => {
  assert.ok(isGoZero(null) && isGoZero('') && isGoZero(0) && isGoZero(false) && isGoZero({}));
  assert.ok(isGoZero({ nodeInfo: { machineID: '' }, daemonEndpoints: { kubeletEndpoint: { Port: 0 } } }));
  assert.ok(!isGoZero({ a: 'x' }) && !isGoZero([]) && !isGoZero(1));
  assert.ok(listedReason('any', 'any', { path: 'body.spec.template.metadata.creationTimestamp', orch: undefined, reference: null }));
  assert.equal(listedReason('any', 'any', { path: 'body.spec.replicas', orch: 1, reference: 0 }), undefined);
  assert.equal(listedReason('any', 'any', { path: 'body.spec.replicas', orch: 0, reference: undefined }), undefined);
});
