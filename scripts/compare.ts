/**
 * `npm run compare -- --reference PATH/kube-apiserver [--only NAME,…] [--verbose] [--orch-arg FLAG]…`
 *
 * The differential checker: starts orch-apiserver (`--api-domain=k8s.io`) and the reference
 * kube-apiserver 1.28, each on its own throw-away etcd with the same identities
 * (scripts/compare/servers.ts), replays every request script of scripts/compare/scripts/ against
 * both in lock-step and reports, per step, each difference in status code, Status
 * reason/details/causes, normalised body, watch events and Warning headers
 * (scripts/compare/diff.ts). Differences explained in README's "Differences from Kubernetes" are
 * counted as listed (scripts/compare/listed.ts). Ends with `N requests, D differences, L listed`
 * and exits 1 when D > 0. `--only` runs the named scripts; `--verbose` prints listed ones too.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Difference, diffAnswers } from './compare/diff.js';
import { listedReason } from './compare/listed.js';
import { runPair } from './compare/run.js';
import { loadScripts } from './compare/script.js';
import { startServers } from './compare/servers.js';

const SCRIPTS_DIR = fileURLToPath(new URL('../../scripts/compare/scripts/', import.meta.url));

interface Flags {
  reference: string;
  only: string[];
  verbose: boolean;
  orchArgs: string[];
}

function parseFlags(argv: string[]): Flags {
  const flags: Flags = { reference: '', only: [], verbose: false, orchArgs: [] };
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    const value = () => inline ?? argv[++i] ?? '';
    if (name === '--reference') flags.reference = value();
    else if (name === '--only') flags.only = value().split(',').filter(Boolean);
    else if (name === '--verbose') flags.verbose = true;
    else if (name === '--orch-arg') flags.orchArgs.push(value());
    else throw new Error(`unknown flag ${name}`);
  }
  if (!flags.reference) throw new Error('--reference PATH/kube-apiserver is required');
  if (!existsSync(flags.reference)) throw new Error(`--reference ${flags.reference}: no such file`);
  return flags;
}

const show = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v));

async function main(): Promise<number> {
  const flags = parseFlags(process.argv.slice(2));
  const scripts = loadScripts(SCRIPTS_DIR).filter((s) => flags.only.length === 0 || flags.only.includes(s.name));
  const servers = await startServers(flags.reference, flags.orchArgs);
  let requests = 0;
  let differing = 0;
  let listed = 0;
  try {
    for (const script of scripts) {
      await runPair(script, servers.orch.client, servers.reference.client, (step, orch, reference) => {
        requests++;
        const diffs = diffAnswers(orch, reference);
        if (diffs.length === 0) return;
        const unexplained = diffs.filter((d) => !listedReason(script.name, step.id, d));
        const where = `${script.name}/${step.id} ${step.method} ${step.path}`;
        if (unexplained.length === 0) {
          listed++;
          if (flags.verbose) console.log(`listed   ${where}: ${listedReason(script.name, step.id, diffs[0] as Difference)}`);
          return;
        }
        differing++;
        console.log(`DIFFERS  ${where}`);
        for (const d of unexplained) console.log(`    ${d.path}: orch ${show(d.orch)} | reference ${show(d.reference)}`);
      });
    }
  } finally {
    await servers.stop();
  }
  console.log(`${requests} requests, ${differing} differences, ${listed} listed`);
  return differing === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`compare: ${(err as Error).message}`);
    process.exit(2);
  },
);
