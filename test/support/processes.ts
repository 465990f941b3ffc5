/** Child processes for end-to-end tests: output captured, waits on output lines, clean stops. */
import { spawn, execFile, type ChildProcess } from 'node:child_process';

export interface Proc {
  child: ChildProcess;
  output(): string;
  /** Resolves with the first match of pattern in stdout+stderr (waits up to timeoutMs). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Sends signal and resolves with the exit code (SIGKILL after graceMs). */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<number | null>;
  exited: Promise<number | null>;
}

/**
 * Starts `cmd`. `detached` puts it in a process group of its own, as a shell does with a foreground
 * job: `process.kill(-proc.child.pid, 'SIGINT')` then signals the group, like Ctrl+C in a terminal.
 */
export function startProcess(cmd: string, args: string[], env: Record<string, string> = {}, opts: { detached?: boolean } = {}): Proc {
  const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: opts.detached });
  let out = '';
  const listeners = new Set<() => void>();
  const onData = (d: Buffer) => {
    out += d.toString();
    for (const l of listeners) l();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let code: number | null | undefined;
  void exited.then((c) => {
    code = c;
    for (const l of listeners) l();
  });
  return {
    child,
    exited,
    output: () => out,
    waitFor(pattern, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const m = out.match(pattern);
          if (m) {
            done();
            resolve(m);
          } else if (code !== undefined) {
            done();
            reject(new Error(`process exited (${code}) before ${pattern}:\n${out}`));
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`timed out waiting for ${pattern}:\n${out}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      });
    },
    async stop(signal = 'SIGTERM', graceMs = 10_000) {
      if (code !== undefined) return code;
      child.kill(signal);
      const t = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const c = await exited;
      clearTimeout(t);
      return c;
    },
  };
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion. */
export function run(
  cmd: string,
  args: string[],
  opts: { env?: Record<string, string>; input?: string; timeoutMs?: number } = {},
): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = execFile(
      cmd,
      args,
      { env: { ...process.env, ...opts.env }, timeout: opts.timeoutMs ?? 60_000, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
    if (opts.input !== undefined) child.stdin!.end(opts.input);
  });
}
