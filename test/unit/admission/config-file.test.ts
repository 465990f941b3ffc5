import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readAdmissionConfiguration } from '../../../apiserver/admission/config-file.js';
import { newApiDomain } from '../../../apiserver/api/domain.js';

const orch = newApiDomain();

const dir = mkdtempSync(join(tmpdir(), 'orch-admission-config-'));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

test('no file: no configuration', () => {
  assert.equal(readAdmissionConfiguration('', orch).size, 0);
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
  const c = readAdmissionConfiguration(p, orch);
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
  assert.deepEqual(readAdmissionConfiguration(p, orch).get('X'), { a: 1 });
});

test('a legacy file configures ImagePolicyWebhook and PodNodeSelector with the whole file', () => {
  const p = file('legacy.yaml', 'podNodeSelectorPluginConfig:\n  clusterDefaultNodeSelector: a=b\n');
  assert.deepEqual(readAdmissionConfiguration(p, orch).get('PodNodeSelector'), {
    podNodeSelectorPluginConfig: { clusterDefaultNodeSelector: 'a=b' },
  });
});

test('bad files are errors that say what is wrong', () => {
  assert.throws(() => readAdmissionConfiguration(join(dir, 'missing.yaml'), orch), /unable to read admission control configuration/);
  assert.throws(
    () => readAdmissionConfiguration(file('kind.yaml', 'kind: Pod\napiVersion: v1\n'), orch),
    /want kind AdmissionConfiguration/,
  );
  assert.throws(
    () =>
      readAdmissionConfiguration(
        file('noname.yaml', 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- path: x\n'),
        orch,
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
        orch,
      ),
    /unable to read configuration of admission plugin A/,
  );
  assert.throws(() => readAdmissionConfiguration(file('garbage.yaml', 'a: ['), orch), /is not YAML or JSON/);
});

test("every apiVersion Kubernetes 1.28 reads an AdmissionConfiguration in, and the domain's names of them", () => {
  const doc = (apiVersion: string) =>
    JSON.stringify({ apiVersion, kind: 'AdmissionConfiguration', plugins: [{ name: 'X', configuration: { a: 1 } }] });
  for (const v of [
    'apiserver.config.k8s.io/v1',
    'apiserver.k8s.io/v1alpha1',
    'apiserver.config.orch.io/v1',
    'apiserver.orch.io/v1alpha1',
  ]) {
    assert.deepEqual(readAdmissionConfiguration(file(`ok-${v.replace('/', '-')}.json`, doc(v)), orch).get('X'), { a: 1 }, v);
  }
  for (const v of ['apiserver.config.k8s.io/v2', 'apiserver.example.com/v1', 'apiserver.config.orch.io/v1']) {
    assert.throws(
      () => readAdmissionConfiguration(file(`bad-${v.replace('/', '-')}.json`, doc(v)), newApiDomain('k8s.io')),
      /want kind AdmissionConfiguration of apiVersion apiserver.config.k8s.io\/v1, apiserver.k8s.io\/v1alpha1;/,
      v,
    );
  }
});
