import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { errorMessage, fieldPath } from '../../../../../apiserver/api/field-errors.js';
import { parseQuantity } from '../../../../../apiserver/api/quantity.js';
import {
  isStandardQuotaResourceName,
  validateResourceName,
  validateResourceQuotaResourceName,
} from '../../../../../apiserver/registry/core/resourcequota/resource-names.js';
import {
  resourceListEntries,
  validateBasicResource,
  validateNonnegativeQuantity,
  validatePositiveQuantityValue,
} from '../../../../../apiserver/registry/shared/pod-spec/resource-quantities.js';

describe('resource names of quotas and limit ranges', () => {
  it('knows the standard quota resources, huge pages included', () => {
    assert.equal(isStandardQuotaResourceName('requests.storage'), true);
    assert.equal(isStandardQuotaResourceName('requests.hugepages-2Mi'), true);
    assert.equal(isStandardQuotaResourceName('storage'), false);
    assert.equal(isStandardQuotaResourceName('count/pods'), false);
  });

  it('validates names with Kubernetes’ messages', () => {
    assert.deepEqual(validateResourceName('gpus', 'x').map(errorMessage), [
      'x: Invalid value: "gpus": must be a standard resource type or fully qualified',
    ]);
    assert.deepEqual(validateResourceName('storage', 'x'), []);
    assert.deepEqual(validateResourceName('example.com/gpu', 'x'), []);
    assert.deepEqual(validateResourceQuotaResourceName('storage', 'x').map(errorMessage), [
      'x: Invalid value: "storage": must be a standard resource for quota',
    ]);
    assert.deepEqual(validateResourceQuotaResourceName('count/deployments.apps', 'x'), []);
    assert.equal(validateResourceQuotaResourceName('a/b/c', 'x').length, 1);
  });
});

describe('quantity rules', () => {
  it('words sign errors as Kubernetes does', () => {
    assert.deepEqual(validateNonnegativeQuantity(parseQuantity('-1500m'), 'x').map(errorMessage), [
      'x: Invalid value: "-1500m": must be greater than or equal to 0',
    ]);
    assert.deepEqual(validatePositiveQuantityValue(parseQuantity('0'), 'x').map(errorMessage), [
      'x: Invalid value: "0": must be greater than zero',
    ]);
    assert.deepEqual(validateBasicResource(parseQuantity('-0.5'), 'x').map(errorMessage), [
      'x: Invalid value: -1: must be a valid resource quantity',
    ]);
    assert.deepEqual(validateBasicResource(parseQuantity('0'), 'x'), []);
  });

  it('lists a resource list’s quantities with their paths, skipping non-quantities', () => {
    const entries = resourceListEntries({ cpu: '1', bad: 'lots' }, (n) => fieldPath('hard').key(n));
    assert.deepEqual(
      entries.map((e) => [e.name, String(e.path), e.quantity.unscaled]),
      [['cpu', 'hard[cpu]', 1n]],
    );
  });
});
