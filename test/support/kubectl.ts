/** The real kubectl (/usr/bin/kubectl) against a kubeconfig. */
import { run, type RunResult } from './processes.js';

export const KUBECTL = '/usr/bin/kubectl';

export function newKubectl(kubeconfig: string) {
  const env = { KUBECONFIG: kubeconfig, HOME: process.env.HOME ?? '/tmp', KUBECACHEDIR: `${kubeconfig}.cache` };
  return {
    run(args: string[], opts: { input?: string; env?: Record<string, string> } = {}): Promise<RunResult> {
      return run(KUBECTL, ['--kubeconfig', kubeconfig, ...args], { input: opts.input, env: { ...env, ...opts.env } });
    },
    /** Runs and fails the test with kubectl's output when it exits non-zero. */
    async ok(args: string[], opts: { input?: string; env?: Record<string, string> } = {}): Promise<string> {
      const r = await run(KUBECTL, ['--kubeconfig', kubeconfig, ...args], { input: opts.input, env: { ...env, ...opts.env } });
      if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} exited ${r.code}:\n${r.stderr}\n${r.stdout}`);
      return r.stdout;
    },
    env,
  };
}
