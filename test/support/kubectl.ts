/** The real kubectl (/usr/bin/kubectl) against a kubeconfig. */
import { run, type RunResult } from './processes.js';

export const KUBECTL = '/usr/bin/kubectl';
/**
 * kubectl 1.32 from the same install: its typed clients send protobuf and its exec/attach speak WebSocket
 * (v5.channel.k8s.io) where 1.28 sends JSON and speaks SPDY. /usr/bin/kubectl picks a release by the
 * server's version, so the newer behaviour needs this binary named directly.
 */
export const KUBECTL_1_32 = '/usr/lib/google-cloud-sdk/bin/kubectl.1.32';

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
