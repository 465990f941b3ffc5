/** Replays one script's steps against one server, keeping each answer for later `${id…}` references. */
import { resolveRefs, type Script, type Step } from './script.js';
import type { Answer } from './diff.js';
import type { TestClient } from '../../test/support/http-client.js';

const DEFAULT_WATCH_TIMEOUT_MS = 3000;

/** The server side of a script run: answers so far, by step id. */
export class ScriptRun {
  readonly answers = new Map<string, unknown>();
  constructor(readonly client: TestClient) {}

  /** Sends one step (its references resolved against this server's earlier answers). */
  async send(step: Step): Promise<Answer> {
    if (step.delayMs) await new Promise((r) => setTimeout(r, step.delayMs));
    let path: string;
    let body: unknown;
    try {
      path = resolveRefs(step.path, this.answers, true) as string;
      body = resolveRefs(step.body, this.answers);
    } catch (err) {
      return { status: 0, body: `unresolved: ${(err as Error).message}` };
    }
    const answer = step.watch ? await this.watch(path, step) : await this.request(step, path, body);
    this.answers.set(step.id, answer.events ? answer.events.map((e) => e.object) : answer.body);
    return answer;
  }

  private async request(step: Step, path: string, body: unknown): Promise<Answer> {
    const raw = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const res = await this.client.request(step.method, path, { raw, contentType: step.contentType, headers: step.headers });
    return { status: res.status, body: res.body, warnings: res.headers.warning };
  }

  private async watch(path: string, step: Step): Promise<Answer> {
    const stream = await this.client.watch(path, step.headers);
    try {
      // The test client puts a refused watch's decoded body on the stream as errorBody (test/support/http-client.ts).
      if (stream.status >= 300) return { status: stream.status, body: (stream as unknown as { errorBody: unknown }).errorBody };
      const events: { type: string; object: unknown }[] = [];
      const deadline = Date.now() + (step.watch!.timeoutMs ?? DEFAULT_WATCH_TIMEOUT_MS);
      while (events.length < step.watch!.events && Date.now() < deadline) {
        try {
          const e = await stream.next(Math.max(1, deadline - Date.now()));
          if (e.type !== 'BOOKMARK') events.push(e);
        } catch {
          break;
        }
      }
      return { status: stream.status, body: undefined, events };
    } finally {
      stream.close();
    }
  }
}

/** Runs `script` on both servers in lock-step and hands each pair of answers to `onStep`. */
export async function runPair(
  script: Script,
  orch: TestClient,
  reference: TestClient,
  onStep: (step: Step, orch: Answer, reference: Answer) => void,
): Promise<void> {
  const o = new ScriptRun(orch);
  const r = new ScriptRun(reference);
  for (const step of script.steps) {
    const [a, b] = await Promise.all([o.send(step), r.send(step)]);
    onStep(step, a, b);
  }
}
