import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CertificateSigningRequest } from '../../../../apiserver/api/generated/types.js';
import { csrExpiry } from '../../../../controllers/csrcleaner/csr-cleaner.js';

const created = '2026-01-01T00:00:00Z';
const at = (h: number) => new Date(Date.parse(created) + h * 3_600_000);
const csr = (conditions: { type: string; lastUpdateTime?: string }[], certificate?: string): CertificateSigningRequest => ({
  metadata: { name: 'x', creationTimestamp: created },
  spec: { request: '', signerName: 'example.com/s' },
  status: { conditions: conditions.map((c) => ({ status: 'True', ...c })), ...(certificate ? { certificate } : {}) },
});

test('pending requests go after 24 hours, denied and failed ones an hour after their condition', () => {
  assert.equal(csrExpiry(csr([]), at(23)), undefined);
  assert.equal(csrExpiry(csr([]), at(25)), 'pending past deadline');
  assert.equal(csrExpiry(csr([{ type: 'Denied', lastUpdateTime: created }]), at(0.9)), undefined);
  assert.equal(csrExpiry(csr([{ type: 'Denied', lastUpdateTime: created }]), at(1.1)), 'denied past deadline');
  assert.equal(csrExpiry(csr([{ type: 'Failed', lastUpdateTime: created }]), at(1.1)), 'failed past deadline');
  assert.equal(csrExpiry(csr([{ type: 'Failed' }]), at(100)), undefined, 'no time, no age');
});

test('approved requests go an hour after approval only once issued', () => {
  assert.equal(csrExpiry(csr([{ type: 'Approved', lastUpdateTime: created }]), at(100)), undefined);
  assert.equal(csrExpiry(csr([{ type: 'Approved', lastUpdateTime: created }], 'bm90IGEgY2VydA=='), at(1.1)), 'issued past deadline');
});
