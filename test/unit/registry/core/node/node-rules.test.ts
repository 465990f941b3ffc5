import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fieldPath, errorMessage } from '../../../../../apiserver/api/field-errors.js';
import { cidrFamily } from '../../../../../apiserver/registry/core/node/cidr.js';
import { validateNodeTaints } from '../../../../../apiserver/registry/core/node/taints.js';

describe('node rules', () => {
  it('parses CIDRs sloppily, as Kubernetes does', () => {
    assert.equal(cidrFamily('10.0.0.0/8'), 4);
    assert.equal(cidrFamily('010.000.000.000/8'), 4);
    assert.equal(cidrFamily('fd00::/64'), 6);
    assert.equal(cidrFamily('::ffff:10.0.0.0/104'), 4);
    for (const bad of ['10.0.0.0', '10.0.0.0/33', '256.0.0.0/8', 'fd00::/129', 'fe80::1%eth0/64', '10.0.0.0/+8', 'x/8'])
      assert.equal(cidrFamily(bad), undefined, bad);
  });

  it('checks taint keys and effects; the same key may repeat with another effect', () => {
    const errors = validateNodeTaints(
      [
        { key: '', effect: 'NoSchedule' },
        { key: 'gpu', effect: 'NoSchedule' },
        { key: 'gpu', effect: 'NoExecute' },
      ],
      fieldPath('t'),
    ).map(errorMessage);
    assert.equal(errors.length, 2);
    assert.match(errors[0], /^t\[0\]\.key: Invalid value: "": name part must be non-empty$/);
    assert.match(errors[1], /^t\[0\]\.key: Invalid value: "": name part must consist of/);
  });

  it('requires a known taint effect', () => {
    assert.deepEqual(
      validateNodeTaints(
        [
          { key: 'a', effect: '' },
          { key: 'b', effect: 'Never' },
        ],
        fieldPath('t'),
      ).map(errorMessage),
      [
        't[0].effect: Required value',
        't[1].effect: Unsupported value: "Never": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
      ],
    );
  });
});
