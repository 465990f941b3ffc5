import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MetricsFactory, isHidden, newRegistry } from '../../../../apiserver/component-base/metrics/registry.js';
import { MetricsOptions } from '../../../../apiserver/component-base/metrics/metrics-options.js';

describe('metrics stability and deprecation (orch is Kubernetes 1.28)', () => {
  it('annotates help with the stability level and the deprecation release', async () => {
    const m = new MetricsFactory(newRegistry());
    m.counter({ name: 'a_total', help: 'A.', stabilityLevel: 'STABLE' }).inc();
    m.counter({ name: 'b_total', help: 'B.' }).inc();
    m.counter({ name: 'c_total', help: 'C.', deprecatedVersion: '1.28.0' }).inc();
    const text = await m.registry.metrics();
    assert.match(text, /# HELP a_total \[STABLE\] A\.\n/);
    assert.match(text, /# HELP b_total \[ALPHA\] B\.\n/);
    assert.match(text, /# HELP c_total \[ALPHA\] \(Deprecated since 1\.28\.0\) C\.\n/);
  });

  it('hides metrics deprecated in an earlier release unless --show-hidden-metrics-for-version is given', async () => {
    assert.equal(isHidden('1.28.0', ''), false);
    assert.equal(isHidden('1.27.0', ''), true);
    assert.equal(isHidden('1.27.0', '1.27'), false);
    const hidden = new MetricsFactory(newRegistry());
    hidden.counter({ name: 'old_total', help: 'Old.', deprecatedVersion: '1.27.0' }).inc();
    assert.doesNotMatch(await hidden.registry.metrics(), /old_total/);
    const shown = new MetricsFactory(newRegistry(), '1.27');
    shown.counter({ name: 'old_total', help: 'Old.', deprecatedVersion: '1.27.0' }).inc();
    assert.match(
      await shown.registry.metrics(),
      /# HELP old_total \[ALPHA\] \(Deprecated since 1\.27\.0\) Old\.\n# TYPE old_total counter\nold_total 1/,
    );
  });

  it('accepts only the previous minor release for --show-hidden-metrics-for-version', () => {
    const o = new MetricsOptions();
    o.values.showHiddenMetricsForVersion = '1.26';
    assert.throws(() => o.validate(), {
      message: "--show-hidden-metrics-for-version must be omitted or have the value '1.27'. Only the previous minor version is allowed",
    });
    o.values.showHiddenMetricsForVersion = '1.27';
    o.validate();
  });
});
