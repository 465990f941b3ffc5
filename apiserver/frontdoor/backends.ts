/**
 * The replicas behind the front door and which of them get new requests: each replica's /readyz is
 * checked every interval; a replica is ready after one 200 and out after a failed check or a
 * connection that could not be made (a killed replica is out at once, before its next check). New
 * requests go round-robin over the ready ones; requests already running on a replica that stops
 * being ready (it drains: /readyz fails while it still serves) are left to finish there.
 */
import { request, type Agent } from 'node:https';

export interface Backend {
  /** The origin, e.g. https://127.0.0.1:6444. */
  readonly url: string;
  ready: boolean;
}

export interface BackendPoolOptions {
  urls: readonly string[];
  /** Agent of the checks; presents the proxy's identity so that /readyz answers under any authorization. */
  agent: Agent;
  /** Headers every check sends (the proxy's own user). */
  headers: Record<string, string>;
  intervalMs: number;
  timeoutMs: number;
  /** Told whenever a replica turns ready or not. */
  onChange?(backend: Backend): void;
}

export class BackendPool {
  readonly backends: Backend[];
  private next = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly firstCheck: Promise<void>;

  constructor(private readonly options: BackendPoolOptions) {
    this.backends = options.urls.map((url) => ({ url, ready: false }));
    this.firstCheck = this.checkAll();
    this.timer = setInterval(() => void this.checkAll(), options.intervalMs);
    this.timer.unref();
  }

  /** Resolves after every replica was checked once. */
  checked(): Promise<void> {
    return this.firstCheck;
  }

  /** The next ready replica not in `tried`, round-robin; undefined when there is none. */
  pick(tried: ReadonlySet<Backend> = new Set()): Backend | undefined {
    const n = this.backends.length;
    for (let i = 0; i < n; i++) {
      const backend = this.backends[(this.next + i) % n];
      if (backend.ready && !tried.has(backend)) {
        this.next = (this.next + i + 1) % n;
        return backend;
      }
    }
    return undefined;
  }

  /** A connection to `backend` could not be made: no new requests until a check passes again. */
  markDown(backend: Backend): void {
    this.set(backend, false);
  }

  close(): void {
    clearInterval(this.timer);
  }

  private async checkAll(): Promise<void> {
    await Promise.all(this.backends.map(async (b) => this.set(b, await this.check(b))));
  }

  private set(backend: Backend, ready: boolean): void {
    if (backend.ready === ready) return;
    backend.ready = ready;
    this.options.onChange?.(backend);
  }

  private check(backend: Backend): Promise<boolean> {
    return new Promise((resolve) => {
      const req = request(
        `${backend.url}/readyz`,
        { agent: this.options.agent, headers: this.options.headers, timeout: this.options.timeoutMs },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode === 200));
          res.on('error', () => resolve(false));
        },
      );
      req.on('timeout', () => req.destroy(new Error('health check timed out')));
      req.on('error', () => resolve(false));
      req.end();
    });
  }
}
