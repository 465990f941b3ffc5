import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newApiDomain } from '../../../../apiserver/api/domain.js';
import { invalid, type FieldError } from '../../../../apiserver/api/field-errors.js';
import type { ApiObject } from '../../../../apiserver/api/object.js';
import type { ResourceDef } from '../../../../apiserver/api/resource.js';
import type { StrategyContext } from '../../../../apiserver/api/strategy.js';
import { isApiError } from '../../../../apiserver/api/status.js';
import { validateForCreate, validateForUpdate } from '../../../../apiserver/registry/generic/validate-object.js';

const ctx: StrategyContext = { domain: newApiDomain(), now: new Date('2024-01-01T00:00:00Z') };
const thing = (rv?: string): ApiObject => ({ metadata: { name: 'x', namespace: 'ns', uid: 'u', ...(rv ? { resourceVersion: rv } : {}) } });

/** A kind whose every rule fails with its own field, so the 422 names the rules that ran. */
function kind(view = false): ResourceDef {
  const rule = (field: string): FieldError[] => [invalid(field, 'x', 'ran')];
  return {
    group: 'example.com',
    kind: 'Thing',
    namespaced: true,
    nameRule: 'dns-subdomain',
    strategy: { validate: () => rule('create'), validateUpdate: () => rule('update') },
    subresources: {
      status: { prepareForUpdate: (obj: ApiObject) => obj, validateUpdate: () => rule('status') },
      scale: { prepareForUpdate: (obj: ApiObject) => obj, validateUpdate: () => rule('scale'), ...(view ? { view: {} as never } : {}) },
    },
  } as unknown as ResourceDef;
}

function fieldsOf(fn: () => void): string[] {
  try {
    fn();
  } catch (e) {
    assert.ok(isApiError(e));
    return (e.status.details?.causes ?? []).map((c) => c.field ?? '');
  }
  return [];
}

test('a create runs the create rules only', () => {
  assert.deepEqual(
    fieldsOf(() => validateForCreate(kind(), thing(), ctx)),
    ['create'],
  );
});

test('an update runs the update rules only', () => {
  assert.deepEqual(
    fieldsOf(() => validateForUpdate(kind(), thing('5'), thing('5'), ctx)),
    ['update'],
  );
});

test("a subresource runs its own rules; one served as a view of the object also runs the kind's update rules", () => {
  assert.deepEqual(
    fieldsOf(() => validateForUpdate(kind(), thing('5'), thing('5'), ctx, 'status')),
    ['status'],
  );
  assert.deepEqual(
    fieldsOf(() => validateForUpdate(kind(true), thing('5'), thing('5'), ctx, 'scale')),
    ['scale', 'update'],
  );
});
