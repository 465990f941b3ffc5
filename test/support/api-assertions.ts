/** Assertions the kinds' HTTP tests share. */
import assert from 'node:assert/strict';
import type { TestClient } from './http-client.js';

/** Accept header asking for the Table view in the default domain's meta group. */
export const TABLE = 'application/json;as=Table;v=v1;g=meta.orch.io';

export type Cause = { reason: string; message: string; field: string };

/** Sends the write, asserts a 422 Invalid and returns its causes. */
export async function invalidCauses(c: TestClient, method: 'post' | 'put', path: string, body: unknown): Promise<Cause[]> {
  const r = await c[method](path, body);
  assert.equal(r.status, 422, r.text);
  assert.equal(r.body.reason, 'Invalid');
  return r.body.details.causes;
}

/** The column names and the first row's cells of an object's or list's Table. */
export async function firstTableRow(c: TestClient, path: string): Promise<{ columns: string[]; cells: unknown[] }> {
  const r = await c.request('GET', path, { headers: { Accept: TABLE } });
  assert.equal(r.status, 200, r.text);
  return { columns: r.body.columnDefinitions.map((d: { name: string }) => d.name), cells: r.body.rows[0].cells };
}
