/**
 * The command lines that deploy/ files (systemd units, Kubernetes manifests, the Dockerfile) give
 * orch's binaries, checked against the binaries themselves: the script exists in dist/ and answers
 * --help, and every flag and value parses with that binary's own flag table (names, types: ints,
 * durations, booleans, IPs), so a renamed or mistyped flag fails here rather than at a start.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { run } from './processes.js';
import { apiserverCommand } from '../../apiserver/server/options.js';
import { proxyCommand } from '../../apiserver/frontdoor/options.js';
import { controllerManagerCommand } from '../../controllers/app/options.js';
import { parseAllInOne } from '../../scripts/all-in-one-options.js';

/** The installed paths of the binaries (the image's /opt/orch, the units' /opt/orch) → their flag tables. */
const BINARIES: Record<string, { script: string; parse: (argv: string[]) => void }> = {
  'dist/apiserver/cmd/apiserver.js': { script: 'orch-apiserver', parse: (a) => apiserverCommand.flagSet().fs.parse(a) },
  'dist/apiserver/cmd/proxy.js': { script: 'orch-proxy', parse: (a) => proxyCommand.flagSet().fs.parse(a) },
  'dist/controllers/cmd/controller-manager.js': {
    script: 'orch-controller-manager',
    parse: (a) => controllerManagerCommand.flagSet().fs.parse(a),
  },
  'dist/scripts/all-in-one.js': { script: 'all-in-one', parse: (a) => void parseAllInOne(a) },
};

/** The image's names on PATH (deploy/Dockerfile's symlinks). */
export const ON_PATH: Record<string, string> = {
  'orch-apiserver': 'dist/apiserver/cmd/apiserver.js',
  'orch-proxy': 'dist/apiserver/cmd/proxy.js',
  'orch-controller-manager': 'dist/controllers/cmd/controller-manager.js',
};

/**
 * Checks `argv` (`/usr/bin/node [node flags] /opt/orch/dist/….js [flags]`, or `orch-apiserver
 * [flags]` as on the image's PATH); returns the binary's name. `where` names the file for messages.
 */
export async function checkCommandLine(argv: string[], where: string): Promise<string> {
  let i = 0;
  let script: string | undefined;
  if (ON_PATH[argv[0]]) {
    script = ON_PATH[argv[0]];
    i = 1;
  } else {
    assert.match(argv[0], /^(\/usr\/bin\/)?node$/, `${where}: runs ${argv[0]}, not node or an orch binary`);
    for (i = 1; i < argv.length && argv[i].startsWith('-'); i++) {
      assert.match(argv[i], /^--max-semi-space-size=\d+$|^--max-old-space-size=\d+$/, `${where}: node flag ${argv[i]}`);
    }
    const path = argv[i++];
    const m = /(?:^|\/opt\/orch\/)(dist\/.+\.js)$/.exec(path ?? '');
    assert.ok(m, `${where}: ${path} is not a script of /opt/orch/dist`);
    script = m[1];
  }
  const binary = BINARIES[script];
  assert.ok(binary, `${where}: ${script} is not an orch binary`);
  assert.ok(existsSync(script), `${where}: ${script} does not exist`);
  const flags = argv.slice(i);
  try {
    binary.parse(flags);
  } catch (err) {
    assert.fail(`${where}: ${binary.script} refuses ${flags.join(' ')}: ${(err as Error).message}`);
  }
  const help = await run(process.execPath, [script, '--help']);
  assert.equal(help.code, 0, `${where}: ${script} --help: ${help.stderr}`);
  for (const f of flags) {
    const name = /^--([\w-]+)/.exec(f)?.[1];
    assert.ok(name, `${where}: ${f} is not a --flag`);
    assert.ok(
      help.stdout.includes(`--${name} `) || help.stdout.includes(`--${name}\n`),
      `${where}: --${name} is not in ${binary.script} --help`,
    );
  }
  return binary.script;
}
