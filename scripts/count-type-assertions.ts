/**
 * Counts type assertions (`x as T`) in the hand-written source of apiserver/, controllers/ and scripts/.
 * The installed TypeScript (7, the native compiler) has no JavaScript API, so the parsing is Biome's:
 * `biome search` finds every `as` expression in the syntax tree, so comments, strings, imports and
 * exports never count; `as const` is left out. A double cast `x as unknown as T` counts once, and is
 * also counted on its own; one with no comment on its line or the line before is unexplained.
 * Generated files (apiserver/api/generated) and tests are left out. (`<T>x` assertions: none are
 * written here, and Biome's search finds none.)
 *
 *   node dist/scripts/count-type-assertions.js [--files] [--unexplained] [root]
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface AssertionCount {
  /** Every assertion but `as const`; a double cast through unknown counts once. */
  assertions: number;
  /** `as unknown as T`. */
  doubleCasts: number;
  /** Double casts with no comment on their line or the line before, as `file:line`. */
  unexplained: string[];
  /** Assertions per file. */
  perFile: Map<string, number>;
}

/** A match as Biome reports it: 1-based lines and columns, the end column exclusive. */
export interface Match {
  path: string;
  start: { line: number; column: number };
  end: { line: number; column: number };
}

const SOURCE_FOLDERS = ['apiserver', 'controllers', 'scripts'];
const LEFT_OUT = [/^apiserver\/api\/generated\//, /\.test\.ts$/, /\.d\.ts$/];
const AS_EXPRESSION = '`$x as $t`';
/** The project's Biome (this file runs from dist/scripts/). */
const BIOME = fileURLToPath(new URL('../../node_modules/.bin/biome', import.meta.url));

/** Every `as` expression under `folders` of `root`, found by Biome. */
export function findAsExpressions(root: string, folders = SOURCE_FOLDERS): Match[] {
  const out = execFileSync(BIOME, ['search', '--reporter=json', '--max-diagnostics=none', '--colors=off', AS_EXPRESSION, ...folders], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const report = JSON.parse(out) as { diagnostics: { category: string; location: Match }[] };
  return report.diagnostics.filter((d) => d.category === 'search').map((d) => d.location);
}

/** Counts the matches, reading their text through `lines(path)`. */
export function countAssertions(matches: Match[], lines: (path: string) => string[]): AssertionCount {
  const count: AssertionCount = { assertions: 0, doubleCasts: 0, unexplained: [], perFile: new Map() };
  const byFile = new Map<string, Match[]>();
  for (const m of matches) {
    if (LEFT_OUT.some((re) => re.test(m.path))) continue;
    let list = byFile.get(m.path);
    if (!list) byFile.set(m.path, (list = []));
    list.push(m);
  }
  for (const [path, list] of byFile) {
    const text = lines(path);
    const specifiers = specifierLines(text);
    // Biome's pattern also matches the renames of import and export lists (`{ a as b }`): not assertions.
    const spans = list
      .map((m) => ({ m, text: spanText(text, m) }))
      .filter((s) => !(specifiers.has(s.m.start.line) && /^[\w$]+\s+as\s+[\w$]+$/.test(s.text)));
    const inner = new Set<Match>();
    const outer = new Set<Match>();
    for (const s of spans) {
      if (!/\bas\s+unknown$/.test(s.text)) continue;
      // The assertion that holds this `x as unknown` (maybe in parentheses) and asserts it again.
      const holder = spans.filter((o) => o !== s && holds(o, s)).sort((a, b) => a.text.length - b.text.length)[0];
      if (holder) {
        inner.add(s.m);
        outer.add(holder.m);
      }
    }
    let n = 0;
    for (const s of spans) {
      if (/\bas\s+const$/.test(s.text) || inner.has(s.m)) continue;
      n++;
      if (!outer.has(s.m)) continue;
      count.doubleCasts++;
      const line = s.m.start.line - 1;
      if (!/\/\/|\/\*/.test(text[line] ?? '') && !/^\s*(\/\/|\/?\*)/.test(text[line - 1] ?? ''))
        count.unexplained.push(`${path}:${line + 1}`);
    }
    count.assertions += n;
    if (n) count.perFile.set(path, n);
  }
  return count;
}

/** The (1-based) lines inside the braces of import and export lists. */
function specifierLines(text: string[]): Set<number> {
  const out = new Set<number>();
  let open = false;
  text.forEach((line, i) => {
    if (!open && /^\s*(import\b[^=(]*\{|export\s+(type\s+)?\{)/.test(line)) open = true;
    if (open) out.add(i + 1);
    if (open && line.includes('}')) open = false;
  });
  return out;
}

/** `outer` starts where `inner` does (or at a parenthesis just before it) and asserts it again. */
function holds(outer: { m: Match; text: string }, inner: { m: Match; text: string }): boolean {
  if (outer.m.start.line !== inner.m.start.line || outer.m.start.column > inner.m.start.column) return false;
  const before = outer.text.slice(0, inner.m.start.column - outer.m.start.column);
  if (!/^(\(\s*)?$/.test(before)) return false;
  const after = outer.text.slice(before.length);
  return after.startsWith(inner.text) && /^\s*\)?\s*as\b/.test(after.slice(inner.text.length));
}

/** The source text of a match (columns count characters, not UTF-16 units). */
function spanText(lines: string[], m: Match): string {
  const parts: string[] = [];
  for (let l = m.start.line; l <= m.end.line; l++) {
    const chars = Array.from(lines[l - 1] ?? '');
    const from = l === m.start.line ? m.start.column - 1 : 0;
    const to = l === m.end.line ? m.end.column - 1 : chars.length;
    parts.push(chars.slice(from, to).join(''));
  }
  return parts.join('\n');
}

function main(argv: string[]): void {
  const flags = new Set(argv.filter((a) => a.startsWith('--')));
  const root = argv.find((a) => !a.startsWith('--')) ?? process.cwd();
  const cache = new Map<string, string[]>();
  const lines = (path: string): string[] => {
    let l = cache.get(path);
    if (!l) cache.set(path, (l = readFileSync(join(root, path), 'utf8').split('\n')));
    return l;
  };
  const count = countAssertions(findAsExpressions(root), lines);
  if (flags.has('--files')) {
    for (const [file, n] of [...count.perFile].sort((a, b) => b[1] - a[1])) console.log(`${String(n).padStart(4)} ${file}`);
  }
  if (flags.has('--unexplained')) for (const where of count.unexplained) console.log(`${where}: as unknown as, no comment`);
  console.log(`type assertions: ${count.assertions}`);
  console.log(`as unknown as: ${count.doubleCasts} (${count.unexplained.length} without a comment)`);
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) main(process.argv.slice(2));
