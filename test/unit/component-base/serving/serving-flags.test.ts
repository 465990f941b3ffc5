import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkFlags, flagValues } from '../../../../apiserver/component-base/flag/flag-table.js';
import { FlagSet } from '../../../../apiserver/component-base/flag/flag-set.js';
import { OptionsError } from '../../../../apiserver/component-base/flag/options-error.js';
import { certDirFlag, securePortFlags, tlsFileFlags } from '../../../../apiserver/component-base/serving/serving-flags.js';

test('the serving flags: one declaration, the binary says its port, what it serves and its wording', () => {
  const table = {
    ...securePortFlags(10257, '/healthz and /metrics'),
    ...tlsFileFlags({ usage: 'The cert.' }, { usage: 'The key.', doc: 'Its key' }),
    ...certDirFlag({ usage: 'The dir.', defaultDoc: 'a temporary directory' }),
  };
  const values = flagValues(table);
  assert.deepEqual(values, { securePort: 10257, bindAddress: '0.0.0.0', tlsCertFile: '', tlsPrivateKeyFile: '', certDir: '' });
  const fs = new FlagSet('demo');
  fs.table(table, values);
  assert.equal(fs.long('secure-port')?.usage, 'The port on which to serve HTTPS /healthz and /metrics. 0 picks a free port.');
  assert.equal(fs.long('bind-address')?.usage, 'The IP address on which to listen for the --secure-port port.');
  assert.equal(fs.long('tls-private-key-file')?.doc, 'Its key');
  assert.equal(fs.long('cert-dir')?.defaultDoc, 'a temporary directory');
  fs.parse(['--secure-port=70000']);
  assert.throws(
    () => checkFlags(table, values),
    new OptionsError('--secure-port 70000 must be between 0 and 65535, inclusive. 0 picks a free port'),
  );
  assert.throws(() => fs.parse(['--bind-address=nowhere']), /failed to parse IP/);
});
