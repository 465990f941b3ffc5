/**
 * deploy/systemd: every unit parses (a small INI reader: sections, keys, `\` continuations), is
 * hardened, and starts an orch binary with a command line that binary accepts (its own flag table;
 * %i and ${VAR} filled from the instance and orch.env); where this machine has systemd-analyze, it
 * also verifies each unit with no complaint.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { checkCommandLine } from '../../support/deploy-command-lines.js';

const DIR = 'deploy/systemd';

/** Every *.service under deploy/systemd. */
function units(): string[] {
  const out: string[] = [];
  for (const sub of readdirSync(DIR, { withFileTypes: true })) {
    if (!sub.isDirectory()) continue;
    for (const f of readdirSync(join(DIR, sub.name))) if (f.endsWith('.service')) out.push(join(DIR, sub.name, f));
  }
  return out.sort();
}

/** A systemd unit file: section → key → values (a key may repeat). */
function parseUnit(text: string): Map<string, Map<string, string[]>> {
  const sections = new Map<string, Map<string, string[]>>();
  let current: Map<string, string[]> | undefined;
  const lines = text.replace(/\\\n/g, ' ').split('\n');
  lines.forEach((raw, n) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) return;
    const section = /^\[([A-Za-z]+)\]$/.exec(line);
    if (section) {
      current = new Map();
      sections.set(section[1], current);
      return;
    }
    const kv = /^([A-Za-z]+)=(.*)$/.exec(line);
    assert.ok(kv && current, `line ${n + 1} is neither a section nor Key=value: ${line}`);
    current.set(kv[1], [...(current.get(kv[1]) ?? []), kv[2].trim()]);
  });
  return sections;
}

/** orch.env's variables. */
function envFile(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of readFileSync(join(DIR, 'ha', 'orch.env'), 'utf8').split('\n')) {
    const m = /^([A-Z_]+)=(.*)$/.exec(line.trim());
    if (m) env[m[1]] = m[2];
  }
  return env;
}

describe('systemd units', () => {
  const files = units();

  it('are there for the one-machine and the HA layout', () => {
    assert.deepEqual(
      files.map((f) => f.slice(DIR.length + 1)),
      ['ha/orch-apiserver@.service', 'ha/orch-controller-manager.service', 'ha/orch-proxy.service', 'one-machine/orch.service'],
    );
  });

  for (const file of files) {
    it(`${file}: hardened, restarted on failure, and its ExecStart is a command line its binary accepts`, async () => {
      const unit = parseUnit(readFileSync(file, 'utf8'));
      assert.ok(unit.get('Unit')?.get('Description'), 'a Description');
      assert.deepEqual(unit.get('Install')?.get('WantedBy'), ['multi-user.target']);
      const service = unit.get('Service')!;
      const one = (key: string) => service.get(key)?.at(-1);
      assert.ok(one('DynamicUser') === 'yes' || one('User') === 'orch', 'runs as a user of its own');
      for (const [key, value] of Object.entries({
        ProtectSystem: 'strict',
        ProtectHome: 'yes',
        PrivateTmp: 'yes',
        PrivateDevices: 'yes',
        NoNewPrivileges: 'yes',
        RestrictSUIDSGID: 'yes',
        ProtectKernelTunables: 'yes',
        SystemCallArchitectures: 'native',
      })) {
        assert.equal(one(key), value, key);
      }
      assert.ok(one('CapabilityBoundingSet') !== undefined, 'a capability bounding set');
      assert.notEqual(one('MemoryDenyWriteExecute'), 'yes', "V8's JIT needs writable executable memory");
      assert.match(one('Restart') ?? '', /^(on-failure|always)$/);
      const execStart = service.get('ExecStart');
      assert.equal(execStart?.length, 1, 'one ExecStart');
      const env = envFile();
      const argv = execStart[0]
        .replace(/%i/g, '6443')
        .replace(/\$\{(\w+)\}/g, (_, name: string) => {
          assert.ok(env[name] !== undefined, `${name} is not in orch.env`);
          return env[name];
        })
        .split(/\s+/)
        .filter(Boolean);
      if (execStart[0].includes('${')) assert.equal(one('EnvironmentFile'), '/etc/orch/orch.env');
      await checkCommandLine(argv, file);
    });
  }

  const analyze = spawnSync('systemd-analyze', ['--version']).status === 0;
  it('systemd-analyze verify finds nothing to say about any unit', { skip: analyze ? false : 'no systemd-analyze here' }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-units-'));
    try {
      for (const file of files) {
        // A template is verified as one of its instances.
        const name = basename(file).replace('@.service', '@6443.service');
        copyFileSync(file, join(dir, name));
        const r = spawnSync('systemd-analyze', ['verify', '--man=no', join(dir, name)], { encoding: 'utf8' });
        // Where node is not at /usr/bin/node, that is the one complaint allowed.
        const complaints = r.stderr
          .split('\n')
          .filter((l) => l.trim() !== '' && !(l.includes('/usr/bin/node is not executable') && !existsSync('/usr/bin/node')));
        assert.deepEqual(complaints, [], `${file}: ${r.stderr}`);
        if (existsSync('/usr/bin/node')) assert.equal(r.status, 0, `${file}: ${r.stderr}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
