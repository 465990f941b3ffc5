import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatComparison, formatPhysicalLine } from '../../../../scripts/bench/compare-report.js';
import { DEFAULT_OPTIONS } from '../../../../scripts/bench/workload.js';

describe('the bench comparison table', () => {
  it('takes the median of several density runs and marks each ratio better or worse', () => {
    const density = (allRunningS: number, serverCpuS: number) => ({ scenario: 'density', allRunningS, serverCpuS });
    const table = formatComparison(
      [
        { name: 'kube-apiserver', results: [density(20, 10), density(24, 12), density(22, 11)] },
        { name: 'orch-etcd', results: [density(30, 8), density(10, 7), density(11, 30)] },
      ],
      DEFAULT_OPTIONS,
    );
    assert.match(table, /^\| density 20 nodes × 1000 Pods: create → all Running s \| 22 \| 11 \| 0\.50× \(better\) \|$/m);
    assert.match(table, /^\| density 20 nodes × 1000 Pods: API server CPU s \| 11 \| 8 \| 0\.73× \(better\) \|$/m);
    assert.doesNotMatch(table, /Pod startup/); // rows nobody measured are left out
  });

  it('puts each server beside raw etcd puts and a bare TLS server', () => {
    const line = formatPhysicalLine(
      [
        {
          name: 'orch-etcd',
          results: [
            { scenario: 'create', rate: 1500 },
            { scenario: 'get', serverCpuUsPerReq: 160 },
          ],
        },
        { name: 'kube-apiserver', results: [{ scenario: 'create', rate: 2000 }] },
      ],
      [
        { scenario: 'etcd-put', rate: 3000 },
        { scenario: 'tls-get', serverCpuUsPerReq: 64 },
      ],
    );
    assert.match(line, /^\| orch-etcd \| 1500 \| 0\.50 \| 160 \| 2\.50 \|$/m);
    assert.match(line, /^\| kube-apiserver \| 2000 \| 0\.67 \| {2}\| {2}\|$/m);
    assert.equal(formatPhysicalLine([{ name: 'orch-etcd', results: [{ scenario: 'create', rate: 1 }] }], []), '');
  });
});
