#!/usr/bin/env node
/**
 * orch-controller-manager: a placeholder until controllers exist. It accepts --kubeconfig (the
 * cluster to manage), says there is nothing to run, and exits 0.
 */
const USAGE = 'usage: orch-controller-manager [--kubeconfig FILE]\n';

const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const arg = argv[i];
  if (arg === '--help' || arg === '-h') {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  if (arg === '--kubeconfig') i++;
  const problem =
    arg === '--kubeconfig' ? (i < argv.length ? undefined : 'flag needs an argument: --kubeconfig')
    : arg.startsWith('--kubeconfig=') ? undefined
    : arg.startsWith('-') ? `unknown flag: ${arg.split('=')[0]}`
    : `unexpected argument ${JSON.stringify(arg)}`;
  if (problem) {
    process.stderr.write(`orch-controller-manager: ${problem}\n${USAGE}`);
    process.exit(2);
  }
}
process.stdout.write('orch-controller-manager: no controllers yet (see the controller-manager issue)\n');
