/**
 * The README's flag tables, generated from the binaries' flag tables: each stands between
 * `<!-- flags: NAME -->` and `<!-- end flags: NAME -->`; `npm run generate:flags` rewrites them and a
 * unit test fails when the README differs from what they generate.
 */
import type { Command } from '../apiserver/component-base/cli/command.js';
import { flagsMarkdown } from '../apiserver/component-base/flag/markdown.js';
import { proxyCommand } from '../apiserver/frontdoor/options.js';
import { apiserverCommand } from '../apiserver/server/options.js';
import { controllerManagerCommand } from '../controllers/app/options.js';

/** The binaries whose flags the README lists. */
export const DOCUMENTED_COMMANDS: readonly Command<unknown>[] = [apiserverCommand, controllerManagerCommand, proxyCommand];

/** A binary's README table: every flag but --help. */
export function commandFlagsMarkdown(command: Command<unknown>): string {
  return flagsMarkdown(
    command
      .flagSet()
      .fs.all()
      .filter((f) => f.name !== 'help'),
  );
}

/** The README with each binary's table regenerated; throws when a binary's markers are missing. */
export function withFlagTables(readme: string, commands: readonly Command<unknown>[] = DOCUMENTED_COMMANDS): string {
  let out = readme;
  for (const command of commands) {
    const start = `<!-- flags: ${command.name} -->\n`;
    const end = `<!-- end flags: ${command.name} -->`;
    const from = out.indexOf(start);
    const to = out.indexOf(end, from);
    if (from < 0 || to < 0) throw new Error(`README.md has no "${start.trim()}" … "${end}" section`);
    out = `${out.slice(0, from + start.length)}${commandFlagsMarkdown(command)}${out.slice(to)}`;
  }
  return out;
}
