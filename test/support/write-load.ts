/**
 * Write load for fault tests: writers creating ConfigMaps in one namespace as fast as they are
 * answered, each request recorded (when it started and ended, what came back), so a test can check
 * that every acknowledged (2xx) write is still there and measure when writes resumed after a fault.
 */
import type { TestClient } from './http-client.js';

export interface WriteRecord {
  name: string;
  start: number;
  end: number;
  /** The HTTP status, or the connection error's code when there was no answer. */
  outcome: number | string;
  /** Retry-After of an error answer. */
  retryAfter?: string;
}

export interface WriteLoad {
  /** Every request so far. */
  records: WriteRecord[];
  /** Stops the writers and resolves once the last requests are answered. */
  stop(): Promise<WriteRecord[]>;
}

export function startWriteLoad(client: TestClient, namespace: string, opts: { writers: number; prefix: string }): WriteLoad {
  const records: WriteRecord[] = [];
  let running = true;
  const writer = async (w: number): Promise<void> => {
    for (let i = 0; running; i++) {
      const name = `${opts.prefix}-${w}-${i}`;
      const start = Date.now();
      let record: WriteRecord;
      try {
        const res = await client.post(`/api/v1/namespaces/${namespace}/configmaps`, { metadata: { name }, data: { i: String(i) } });
        const retryAfter = res.headers['retry-after'];
        record = { name, start, end: Date.now(), outcome: res.status, ...(typeof retryAfter === 'string' ? { retryAfter } : {}) };
      } catch (err) {
        record = { name, start, end: Date.now(), outcome: (err as NodeJS.ErrnoException).code ?? String(err) };
      }
      records.push(record);
      if (typeof record.outcome !== 'number' || record.outcome >= 300) await new Promise((r) => setTimeout(r, 50));
    }
  };
  const done = Promise.all(Array.from({ length: opts.writers }, (_, w) => writer(w)));
  return {
    records,
    async stop() {
      running = false;
      await done;
      return records;
    },
  };
}

/** The names of the acknowledged (2xx) writes. */
export function acknowledged(records: readonly WriteRecord[]): string[] {
  return records.filter((r) => typeof r.outcome === 'number' && r.outcome >= 200 && r.outcome < 300).map((r) => r.name);
}

/** Milliseconds from `at` until the first write started after it was acknowledged; undefined if none was. */
export function resumedAfter(records: readonly WriteRecord[], at: number): number | undefined {
  const after = records.filter((r) => r.start >= at && typeof r.outcome === 'number' && r.outcome >= 200 && r.outcome < 300);
  if (after.length === 0) return undefined;
  return Math.min(...after.map((r) => r.end)) - at;
}

/** How many requests ended with each outcome, e.g. { 201: 950, 503: 3 }. */
export function outcomes(records: readonly WriteRecord[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of records) counts[String(r.outcome)] = (counts[String(r.outcome)] ?? 0) + 1;
  return counts;
}

/** Every ConfigMap name in `namespace`, read by a consistent, paged list. */
export async function listConfigMapNames(client: TestClient, namespace: string): Promise<Set<string>> {
  const names = new Set<string>();
  let continueToken = '';
  do {
    const res = await client.get(
      `/api/v1/namespaces/${namespace}/configmaps?limit=500${continueToken ? `&continue=${encodeURIComponent(continueToken)}` : ''}`,
    );
    if (res.status !== 200) throw new Error(`list configmaps: ${res.status} ${res.text}`);
    for (const item of res.body.items) names.add(item.metadata.name);
    continueToken = res.body.metadata.continue ?? '';
  } while (continueToken);
  return names;
}
