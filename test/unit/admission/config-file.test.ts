import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readAdmissionConfiguration } from '../../../apiserver/admission/config-file.js';

const dir = mkdtempSync(join(tmpdir(), 'orch-admission-config-'));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

test('no file: no configuration', () => {
  assert.equal(readAdmissionConfiguration('').size, 0);
});

test('each plugin by embedded configuration or by a path relative to the file', () => {
  file('rate.yaml', 'kind: Configuration\nlimits:\n- type: Server\n  qps: 5\n  burst: 10\n');
  const p = file(
    'admission.yaml',
    [
      'apiVersion: apiserver.config.k8s.io/v1',
      'kind: AdmissionConfiguration',
      'plugins:',
      '- name: EventRateLimit',
      '  path: rate.yaml',
      '- name: PodNodeSelector',
      '  configuration:',
      '    podNodeSelectorPluginConfig:',
      '      clusterDefaultNodeSelector: env=prod',
      '- name: AlwaysAdmit',
    ].join('\n'),
  );
  const c = readAdmissionConfiguration(p);
  assert.deepEqual(c.get('EventRateLimit'), { kind: 'Configuration', limits: [{ type: 'Server', qps: 5, burst: 10 }] });
  assert.deepEqual(c.get('PodNodeSelector'), { podNodeSelectorPluginConfig: { clusterDefaultNodeSelector: 'env=prod' } });
  assert.equal(c.has('AlwaysAdmit'), false);
});

test('the orch name of the group and JSON are accepted', () => {
  const p = file(
    'admission.json',
    JSON.stringify({
      apiVersion: 'apiserver.config.orch.io/v1',
      kind: 'AdmissionConfiguration',
      plugins: [{ name: 'X', configuration: { a: 1 } }],
    }),
  );
  assert.deepEqual(readAdmissionConfiguration(p).get('X'), { a: 1 });
});

test('a legacy file configures ImagePolicyWebhook and PodNodeSelector with the whole file', () => {
  const p = file('legacy.yaml', 'podNodeSelectorPluginConfig:\n  clusterDefaultNodeSelector: a=b\n');
  assert.deepEqual(readAdmissionConfiguration(p).get('PodNodeSelector'), {
    podNodeSelectorPluginConfig: { clusterDefaultNodeSelector: 'a=b' },
  });
});

test('bad files are errors that say what is wrong', () => {
  assert.throws(() => readAdmissionConfiguration(join(dir, 'missing.yaml')), /unable to read admission control configuration/);
  assert.throws(() => readAdmissionConfiguration(file('kind.yaml', 'kind: Pod\napiVersion: v1\n')), /want kind AdmissionConfiguration/);
  assert.throws(
    () =>
      readAdmissionConfiguration(
        file('noname.yaml', 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- path: x\n'),
      ),
    /plugins\[0\]: name is required/,
  );
  assert.throws(
    () =>
      readAdmissionConfiguration(
        file(
          'nopath.yaml',
          'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: A\n  path: nothere.yaml\n',
        ),
      ),
    /unable to read configuration of admission plugin A/,
  );
  assert.throws(() => readAdmissionConfiguration(file('garbage.yaml', 'a: [')), /is not YAML or JSON/);
});
