import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { commandFlagsMarkdown, DOCUMENTED_COMMANDS, withFlagTables } from '../../../scripts/readme-flags.js';

describe("the README's flag tables", () => {
  it('are what the binaries flag tables generate (npm run generate:flags rewrites them)', () => {
    const readme = readFileSync('README.md', 'utf8');
    assert.equal(readme, withFlagTables(readme), 'README.md flag tables are stale: npm run generate:flags');
  });

  it('list every flag of every binary but --help, each once', () => {
    const readme = readFileSync('README.md', 'utf8');
    for (const command of DOCUMENTED_COMMANDS) {
      const table = commandFlagsMarkdown(command);
      assert.ok(readme.includes(table), command.name);
      const names = command
        .flagSet()
        .fs.all()
        .map((f) => f.name)
        .filter((n) => n !== 'help');
      for (const name of names) {
        const rows = table.split('\n').filter((row) => row.startsWith(`| \`--${name}\` |`) || row.includes(`, \`--${name}\` |`));
        assert.equal(rows.length, 1, `${command.name} --${name}`);
      }
      assert.doesNotMatch(table, /--help/);
    }
  });

  it('holds the flags the README had left out (--workers, --audit-log-format, --audit-webhook-mode)', () => {
    const apiserver = commandFlagsMarkdown(DOCUMENTED_COMMANDS[0]);
    assert.match(apiserver, /^\| `--workers` \| the number of CPUs − 1 \(at least 1\) \| /m);
    assert.match(apiserver, /^\| `--audit-log-format` \| `json` \| /m);
    assert.match(apiserver, /^\| `--audit-webhook-mode` \| `batch` \| /m);
  });

  it('replaces only what stands between the markers, and refuses a README without them', () => {
    const [apiserver] = DOCUMENTED_COMMANDS;
    const text = 'before\n<!-- flags: orch-apiserver -->\nold\n<!-- end flags: orch-apiserver -->\nafter\n';
    assert.equal(
      withFlagTables(text, [apiserver]),
      `before\n<!-- flags: orch-apiserver -->\n${commandFlagsMarkdown(apiserver)}<!-- end flags: orch-apiserver -->\nafter\n`,
    );
    assert.throws(() => withFlagTables('no tables\n', [apiserver]), /README.md has no "<!-- flags: orch-apiserver -->"/);
  });
});
