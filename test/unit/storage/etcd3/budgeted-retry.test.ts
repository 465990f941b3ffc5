import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TaskCancelledError } from 'cockatiel';
import { BudgetedRetryPolicy } from '../../../../apiserver/storage/etcd3/budgeted-retry.js';

class Transient extends Error {}

function policy(budgetMs: number, maxRetries = 5): BudgetedRetryPolicy {
  return new BudgetedRetryPolicy({ budgetMs, maxRetries, retryable: (err) => err instanceof Transient, delayMs: (attempt) => attempt * 5 });
}

test('BudgetedRetryPolicy: a transient failure is retried until the request succeeds', async () => {
  let tries = 0;
  const value = await policy(1000).execute(async () => {
    if (++tries < 3) throw new Transient('leader changed');
    return 'ok';
  });
  assert.equal(value, 'ok');
  assert.equal(tries, 3);
});

test('BudgetedRetryPolicy: any other failure ends the request at once', async () => {
  let tries = 0;
  const wrong = new Error('invalid argument');
  await assert.rejects(
    policy(1000).execute(async () => {
      tries++;
      throw wrong;
    }),
    (e) => e === wrong,
  );
  assert.equal(tries, 1);
});

test('BudgetedRetryPolicy: retries stop after maxRetries, with the last failure', async () => {
  let tries = 0;
  await assert.rejects(
    policy(5000, 2).execute(async () => {
      throw new Transient(`try ${++tries}`);
    }),
    /try 3/,
  );
  assert.equal(tries, 3);
});

test('BudgetedRetryPolicy: a try that never answers ends with a TaskCancelledError once the budget is spent', async () => {
  const started = Date.now();
  await assert.rejects(
    policy(100).execute(() => new Promise(() => undefined)),
    (e) => e instanceof TaskCancelledError,
  );
  const elapsed = Date.now() - started;
  assert.ok(elapsed >= 95 && elapsed < 1000, `ended after ${elapsed} ms for a 100 ms budget`);
});

test('BudgetedRetryPolicy: the budget also bounds the pauses between retries', async () => {
  const slow = new BudgetedRetryPolicy({ budgetMs: 100, maxRetries: 5, retryable: () => true, delayMs: () => 10_000 });
  const started = Date.now();
  await assert.rejects(
    slow.execute(async () => {
      throw new Transient('unavailable');
    }),
    (e) => e instanceof TaskCancelledError,
  );
  assert.ok(Date.now() - started < 1000);
});

test('BudgetedRetryPolicy: success and failure events fire once per request', async () => {
  const p = policy(1000);
  const events: string[] = [];
  p.onSuccess(() => events.push('success'));
  p.onFailure(({ handled }) => events.push(`failure handled=${handled}`));
  await p.execute(() => 1);
  await assert.rejects(
    p.execute(() => {
      throw new Error('no');
    }),
  );
  assert.deepEqual(events, ['success', 'failure handled=false']);
});
