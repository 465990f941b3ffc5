import { test } from 'node:test';
import assert from 'node:assert/strict';
import { proxyCommand } from '../../../apiserver/frontdoor/options.js';

const REQUIRED = ['--tls-cert-file=s.crt', '--tls-private-key-file=s.key', '--backend-ca-file=ca.crt', '--backends=https://a:6443'];

test('orch-proxy: defaults and a complete command line', () => {
  const o = proxyCommand.options([...REQUIRED, '--backends=https://b:6443/', '--health-check-interval=500ms']);
  assert.deepEqual(o.backends, ['https://a:6443', 'https://b:6443']);
  assert.equal(o.securePort, 6443);
  assert.equal(o.healthCheckIntervalMs, 500);
  assert.equal(o.maxAttempts, 3);
  assert.equal(o.usernameHeader, 'X-Remote-User');
  assert.equal(o.metricsPort, 0);
});

test('orch-proxy: a bad command line is refused with its reason', () => {
  const cases: [string[], RegExp][] = [
    [REQUIRED.filter((a) => !a.startsWith('--backends')), /--backends is required/],
    [REQUIRED.filter((a) => !a.startsWith('--tls-cert-file')), /--tls-cert-file and --tls-private-key-file are required/],
    [[...REQUIRED, '--backends=http://a:6443'], /must be https:\/\/host:port/],
    [[...REQUIRED, '--backends=https://a:6443/api'], /must be https:\/\/host:port/],
    [[...REQUIRED, '--backends=not a url'], /is not a URL/],
    [[...REQUIRED, '--client-ca-file=ca.crt'], /--client-ca-file needs --proxy-client-cert-file/],
    [[...REQUIRED, '--proxy-client-cert-file=p.crt'], /must be given together/],
    [[...REQUIRED, '--max-attempts=0'], /--max-attempts 0 must be at least 1/],
    [[...REQUIRED, '--secure-port=70000'], /--secure-port 70000/],
    [[...REQUIRED, '--requestheader-username-header='], /must not be empty/],
  ];
  for (const [argv, reason] of cases) assert.throws(() => proxyCommand.options(argv), reason, argv.join(' '));
});

test('orch-proxy: --help lists its flags', () => {
  const usage = proxyCommand.usage();
  for (const flag of [
    '--backends',
    '--client-ca-file',
    '--proxy-client-cert-file',
    '--max-attempts',
    '--shutdown-timeout',
    '--metrics-port',
  ]) {
    assert.ok(usage.includes(flag), flag);
  }
});
