/**
 * A binary's flags as the README's Markdown table (Flag, Default, Meaning), from the flag set its
 * command builds: the README line of each flag (FlagOptions.doc, else its --help text) and its
 * default, as the value says it or as FlagOptions.defaultDoc does.
 */
import type { Flag } from './flag-set.js';

/** The table's lines, header first, each ending in a newline. */
export function flagsMarkdown(flags: readonly Flag[]): string {
  const rows = flags.map((f) => {
    const names = f.shorthand ? `\`-${f.shorthand}\`, \`--${f.name}\`` : `\`--${f.name}\``;
    return `| ${names} | ${cell(defaultText(f))} | ${cell(f.doc ?? f.usage)} |\n`;
  });
  return `| Flag | Default | Meaning |\n| --- | --- | --- |\n${rows.join('')}`;
}

/** The Default column: numbers and booleans as --help prints them, lists joined, empty values "(none)". */
function defaultText(f: Flag): string {
  if (f.defaultDoc !== undefined) return f.defaultDoc;
  const v = f.defValue;
  if (typeof v === 'number' || typeof v === 'boolean') return `\`${f.type.format(v)}\``;
  if (f.type.isZero(v)) return '(none)';
  if (Array.isArray(v)) return `\`${v.join(',')}\``;
  if (typeof v === 'string') return `\`${v}\``;
  return `\`${f.type.format(v)}\``;
}

/** One line of a table cell: newlines become spaces, pipes are escaped. */
function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
}
