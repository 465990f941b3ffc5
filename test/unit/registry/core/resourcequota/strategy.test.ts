import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../../../../apiserver/api/object.js';
import { newApiDomain } from '../../../../../apiserver/api/domain.js';
import { resourceQuotaStatusStrategy, resourceQuotaStrategy } from '../../../../../apiserver/registry/core/resourcequota/strategy.js';

const ctx = { domain: newApiDomain(), now: new Date() };
const KEY = 'resourcequota.orch.io/reservations';
const quota = (annotations?: Record<string, string>, used = '1'): ApiObject => ({
  metadata: { name: 'q', namespace: 'ns', ...(annotations ? { annotations } : {}) },
  spec: { hard: { configmaps: '5' } },
  status: { hard: { configmaps: '5' }, used: { configmaps: used } },
});

describe('ResourceQuota strategy: the reservations annotation changes only through /status', () => {
  it('a new quota has none', () => {
    const q = quota({ [KEY]: '{}', other: 'x' });
    resourceQuotaStrategy.prepareForCreate!(q, ctx);
    assert.deepEqual(q.metadata.annotations, { other: 'x' });
  });

  it('a write of the quota keeps the stored one, whatever it sends', () => {
    const stored = quota({ [KEY]: '{"r":1}' });
    const sent = quota({ [KEY]: '{}', other: 'x' });
    resourceQuotaStrategy.prepareForUpdate!(sent, stored, ctx);
    assert.deepEqual(sent.metadata.annotations, { [KEY]: '{"r":1}', other: 'x' });
    const dropped = quota();
    resourceQuotaStrategy.prepareForUpdate!(dropped, stored, ctx);
    assert.deepEqual(dropped.metadata.annotations, { [KEY]: '{"r":1}' });
  });

  it("a /status write sets it with status.used (its other annotations are the request's, as Kubernetes' quota status strategy)", () => {
    const stored = quota({ [KEY]: '{"r":1}', other: 'x' });
    const next = resourceQuotaStatusStrategy.prepareForUpdate(quota({ other: 'y' }, '2'), stored, ctx);
    assert.deepEqual(next.metadata.annotations, { other: 'y' });
    assert.deepEqual((next.status as { used: unknown }).used, { configmaps: '2' });
    const set = resourceQuotaStatusStrategy.prepareForUpdate(quota({ [KEY]: '{"s":1}', other: 'x' }), stored, ctx);
    assert.deepEqual(set.metadata.annotations, { [KEY]: '{"s":1}', other: 'x' });
  });
});
