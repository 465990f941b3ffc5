/** The orch-controller-manager command line: the same flag engine as orch-apiserver, so the same exits. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { run } from '../support/processes.js';

const CONTROLLER_MANAGER = 'dist/controllers/cmd/controller-manager.js';

describe('orch-controller-manager command', () => {
  it('exits 2 with a one-line reason for an unknown flag, a bad value or a missing kubeconfig', async () => {
    for (const [args, reason] of [
      [['--no-such-flag'], 'unknown flag: --no-such-flag'],
      [['-kubeconfig=k'], "unknown shorthand flag: 'k' in -kubeconfig=k"],
      [
        ['--kubeconfig=k', '--leader-elect-retry-period=2'],
        'invalid argument "2" for "--leader-elect-retry-period" flag: time: missing unit in duration "2"',
      ],
      [[], '--kubeconfig is required'],
    ] as const) {
      const r = await run(process.execPath, [CONTROLLER_MANAGER, ...args]);
      assert.equal(r.code, 2, args.join(' '));
      assert.equal(r.stderr, `orch-controller-manager: ${reason}\n`);
    }
  });

  it('prints usage for --help and -h and exits 0', async () => {
    for (const flag of ['--help', '-h']) {
      const r = await run(process.execPath, [CONTROLLER_MANAGER, flag]);
      assert.equal(r.code, 0);
      assert.match(r.stdout, /^Usage:\n {2}orch-controller-manager \[flags\]$/m);
      assert.match(r.stdout, /^ {2}-v, --v int +number for the log level verbosity/m);
    }
  });
});
