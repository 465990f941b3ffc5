/** The orch-apiserver command line: bad flags exit non-zero with one line; --help exits 0. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { run } from '../support/processes.js';

const APISERVER = 'dist/apiserver/cmd/apiserver.js';

describe('orch-apiserver command', () => {
  it('exits 2 with a one-line reason for an unknown flag or a bad value', async () => {
    for (const args of [
      ['--no-such-flag'],
      ['--secure-port=http'],
      ['--authorization-mode=RBAC,Nope'],
      ['--etcd-compaction-interval=5 minutes'],
    ]) {
      const r = await run(process.execPath, [APISERVER, ...args]);
      assert.equal(r.code, 2, args.join(' '));
      const lines = r.stderr.trim().split('\n');
      assert.equal(lines.length, 1, r.stderr);
      assert.match(lines[0], /^orch-apiserver: /);
    }
  });

  it('prints usage for --help and exits 0', async () => {
    const r = await run(process.execPath, [APISERVER, '--help']);
    assert.equal(r.code, 0);
    assert.match(r.stdout + r.stderr, /--etcd-servers/);
    assert.match(r.stdout + r.stderr, /--max-request-bytes/);
  });
});
