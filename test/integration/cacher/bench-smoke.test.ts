/**
 * `npm run bench` end to end, scaled down: it starts its own etcd and both orch targets, runs every
 * scenario (the big list, creates with 0, 1 and 3 webhooks and the custom resources included) and reports each as a JSON line (the real
 * figures come from the full run).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

it('runs every scenario against orch on etcd and on the embedded store, with the etcd baseline', async () => {
  const args = ['--scenario', 'all', '--count', '60', '--concurrency', '4', '--seconds', '0.3', '--list-repeats', '1', '--page-size', '25'];
  args.push('--warmup-seconds', '0', '--watchers', '4', '--events-per-second', '40', '--watch-seconds', '0.25');
  args.push('--rbac-role-bindings', '20', '--rbac-cluster-role-bindings', '5', '--big-list-count', '30');
  args.push(
    '--apf-objects',
    '50',
    '--apf-flooders',
    '8',
    '--ledger-stored-revisions',
    '2000',
    '--console-idle-seconds',
    '1',
    '--restore-objects',
    '60',
  );
  const { stdout } = await promisify(execFile)(process.execPath, ['dist/scripts/bench.js', ...args], { timeout: 300_000 }); // the console scenario starts five servers and a browser
  const lines = stdout
    .split('\n')
    .filter((l) => l.startsWith('{"target"'))
    .map((l) => JSON.parse(l));
  const seen = lines.map((l) => `${l.target} ${l.scenario}`);
  assert.deepEqual(seen, [
    'etcd etcd-put',
    'etcd etcd-get',
    'bare-tls tls-get',
    ...['client-cert', 'static-token', 'sa-jwt-cached', 'sa-jwt-fresh'].map((s) => `authn authn-${s}`),
    ...['orch-etcd', 'orch-sqlite'].flatMap((t) =>
      [
        'create',
        'get',
        'update',
        'list',
        'list-paged-25',
        'watch',
        'list-30',
        'list-30-paged-25',
        'create-0-webhooks',
        'create-1-webhooks',
        'create-3-webhooks',
        'crd-create',
        'crd-list',
      ].map((s) => `${t} ${s}`),
    ),
    'orch-rbac masters-get',
    'orch-rbac rbac-get',
    'orch-apf-cost get-apf-on',
    'orch-apf-cost get-apf-off',
    ...[
      'create-ledger-on',
      'create-ledger-off',
      'update-ledger-on',
      'update-ledger-off',
      'create-blocks',
      'update-blocks',
      'history-read',
      'history-read-sequential',
      'history-read-stored',
      'history-read-stored-sequential',
    ].map((s) => `orch-ledger-etcd ${s}`),
    'orch-ledger create-ledger-on',
    'orch-ledger create-ledger-off',
    'orch-ledger update-ledger-on',
    'orch-ledger update-ledger-off',
    'orch-ledger create-blocks',
    'orch-ledger update-blocks',
    'orch-ledger history-read',
    'orch-ledger history-read-sequential',
    'orch-ledger history-read-stored',
    'orch-ledger history-read-stored-sequential',
    'orch-ledger bytes-per-revision',
    ...[
      'get-console-on',
      'get-console-off',
      'create-console-on',
      'create-console-off',
      'console-idle-closed',
      'console-metrics-scrape',
      'console-idle-overview',
    ].map((s) => `orch-console ${s}`),
    'orch-restore restore-namespace',
    ...['codec-pod', 'codec-configmap', 'get-json', 'list-json', 'get-protobuf', 'list-protobuf', 'watch-json', 'watch-protobuf'].map(
      (s) => `orch-protobuf protobuf-${s}`,
    ),
    ...['masters', 'lease', 'tenant'].map((s) => `orch-apf apf-flood-${s}`),
  ]);
  for (const n of [0, 1, 3])
    for (const l of lines.filter((l) => l.scenario === `create-${n}-webhooks`)) assert.equal(l.webhookCalls, 60 * n);
  const rbac = lines.find((l) => l.scenario === 'rbac-get');
  assert.deepEqual([rbac.roleBindings, rbac.clusterRoleBindings], [20, 5]);
  assert.equal(typeof rbac.costVsMasters, 'number');
  for (const l of lines) if ('errors' in l) assert.equal(l.errors, 0, `${l.target} ${l.scenario}`);
  for (const l of lines.filter((l) => l.scenario === 'list')) {
    assert.equal(l.items, 60);
    assert.equal(typeof l.rssGrowthMB, 'number');
  }
  for (const l of lines.filter((l) => l.scenario === 'list-paged-25')) assert.equal(l.pages, 3);
  for (const l of lines.filter((l) => l.scenario === 'crd-list')) assert.equal(l.items, 66); // 60 and the warm-up's 6
  for (const l of lines.filter((l) => l.scenario === 'crd-create')) assert.equal(typeof l.rateVsConfigMaps, 'number');
  for (const l of lines.filter((l) => l.scenario === 'list-30-paged-25')) assert.deepEqual([l.items, l.pages], [30, 2]);
  for (const l of lines.filter((l) => l.scenario === 'create' || l.scenario === 'tls-get'))
    assert.equal(typeof l.serverCpuUsPerReq, 'number');
  for (const l of lines.filter((l) => l.scenario === 'watch'))
    assert.deepEqual([l.events, l.delivered, l.lost, l.duplicates], [10, 40, 0, 0]);
  const [cached] = lines.filter((l) => l.scenario === 'authn-sa-jwt-cached');
  assert.equal(cached.signatureChecks, 1); // a repeated token is verified once
  assert.ok(lines.find((l) => l.scenario === 'authn-sa-jwt-fresh').signatureChecks > 1);
  assert.match(stdout, /^target +scenario +rate\/s +p50 ms +p99 ms +other$/m);
  assert.match(stdout, /^\| orch-etcd \| [\d.]+ \| [\d.]+ \| \d+ \| [\d.]+ \|$/m); // the physical line: / etcd put, / bare TLS
  assert.match(stdout, /^orch-sqlite:\n {2}(met {3}|MISSED) create \/ etcd-put: /m);
  assert.match(stdout, /^orch-rbac:\n {2}(met {3}|MISSED) RBAC get latency \/ system:masters get latency: /m);
});
