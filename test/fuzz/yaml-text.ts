/**
 * YAML bodies for the fuzz suite: a value as YAML text, then mutated where YAML differs from JSON:
 * aliases (and the billion-laughs expansion), tags, merge keys, several documents, the scalars YAML
 * reads as numbers or booleans, and nesting deep in flow or block style (the body parser's depth
 * check runs after the YAML parser, so a deep body reaches the parser whole).
 */
import YAML from 'yaml';
import { mutateBytes, nestingDepth } from './mutate.js';
import { type Random, randomString } from './random.js';

/**
 * Past this much JSON a value is written as JSON text: the YAML library writes 4 MB of YAML in about
 * 11 s, and while it does no lane's answer is read (every lane timed out).
 */
const MAX_YAML_SOURCE_BYTES = 256 * 1024;

/**
 * Deeper than this a value is written as JSON text: block YAML indents each level, so a map of 5,000
 * keys 1,000 levels down is 10 MB of spaces (5 s to write). Deep YAML has its own inputs (deepYaml).
 */
const MAX_YAML_SOURCE_DEPTH = 64;

function deeperThan(value: unknown, limit: number): boolean {
  if (limit < 0) return true;
  if (value === null || typeof value !== 'object') return false;
  for (const v of Object.values(value)) if (deeperThan(v, limit - 1)) return true;
  return false;
}

/** The value as YAML (a JSON-compatible document), or as JSON text, which YAML also reads. */
export function yamlText(r: Random, value: unknown): string {
  const json = JSON.stringify(value);
  if (r.chance(0.15) || json.length > MAX_YAML_SOURCE_BYTES || deeperThan(value, MAX_YAML_SOURCE_DEPTH)) return json;
  try {
    return YAML.stringify(value, { aliasDuplicateObjects: false, lineWidth: 0 });
  } catch {
    return json;
  }
}

/** Nesting `depth` levels deep: flow sequences, flow mappings, block mappings or block sequences. */
export function deepYaml(r: Random, depth: number): string {
  switch (r.int(0, 3)) {
    case 0:
      return `metadata:\n  name: deep\ndata: ${'['.repeat(depth)}${r.chance(0.7) ? ']'.repeat(depth) : ''}\n`;
    case 1:
      return `metadata: {name: deep}\ndata: ${'{a: '.repeat(depth)}x${r.chance(0.7) ? '}'.repeat(depth) : ''}\n`;
    case 2: {
      // block mappings, one more space of indentation a level (quadratic text: at most 1400 levels)
      const lines = ['data:'];
      for (let i = 1; i <= Math.min(depth, 1400); i++) lines.push(`${' '.repeat(i)}a:`);
      return `${lines.join('\n')} x\n`;
    }
    default:
      // block sequences on one line: "- - - x"
      return `data:\n  ${'- '.repeat(depth)}x\n`;
  }
}

/** Aliases that expand to `width ** levels` nodes (the billion laughs), a few levels of them. */
function aliasBomb(r: Random): string {
  const levels = r.int(2, 9);
  const width = r.int(2, 10);
  const lines = ['metadata: {name: laughs}', `a0: &a0 ["${randomString(r, 4).replace(/["\\\n\r]/g, '')}"]`];
  for (let i = 1; i <= levels; i++) lines.push(`a${i}: &a${i} [${Array.from({ length: width }, () => `*a${i - 1}`).join(', ')}]`);
  lines.push(`data: {x: *a${levels}}`);
  return `${lines.join('\n')}\n`;
}

const SCALARS = [
  '.inf',
  '-.inf',
  '.nan',
  '0x7fffffffffffffffff',
  '0o777',
  '0b101',
  '1_000_000',
  '1e400',
  '~',
  'null',
  'yes',
  'no',
  'on',
  'off',
  'Y',
  '2001-12-14t21:59:43.10-05:00',
  '!!binary aGVsbG8=',
  '!!timestamp 2001-12-14',
  '!!set {a, b}',
  '!!omap [a: 1, b: 2]',
  '!!str',
  '!!int "12"',
  '!!float x',
  '!!map []',
  '!!seq {}',
  '!custom x',
  '!<tag:yaml.org,2002:js/function> "function(){}"',
  '!!python/object:os.system ls',
  '*undefined',
  '&anchor',
  '|',
  '>-',
  '"\\ud800"',
  '"\\U0010FFFF"',
  '"\\x00"',
  "'''",
  '"unterminated',
  '@reserved',
  '`reserved',
  '%TAG ! tag:x,2000:',
];

/** One YAML-level mutation of the text. */
export function mutateYaml(r: Random, text: string): Buffer {
  const lines = text.split('\n');
  const at = r.int(0, Math.max(0, lines.length - 1));
  switch (r.int(0, 8)) {
    case 0: {
      // a scalar replaced by one YAML reads in its own way
      const m = lines[at].match(/^(\s*(- )?[^:]+:\s*)(\S.*)$/);
      if (m) lines[at] = m[1] + r.pick(SCALARS);
      else lines[at] += ` ${r.pick(SCALARS)}`;
      return Buffer.from(lines.join('\n'));
    }
    case 1: // a merge key, an anchor and alias, a repeated key
      lines.splice(
        at,
        0,
        r.pick([
          '<<: {a: 1}',
          '<<: *nope',
          'x: &y {a: 1}\nz: *y',
          'metadata: {}',
          `${lines[at].split(':')[0]}: again`,
          '? [complex, key]\n: v',
        ]),
      );
      return Buffer.from(lines.join('\n'));
    case 2: // several documents
      return Buffer.from(
        r.pick([`${text}\n---\n${text}`, `---\n${text}`, `${text}\n...\n`, `${text}\n---\n`, '---\n---\n', `%YAML 1.1\n---\n${text}`]),
      );
    case 3:
      return Buffer.from(aliasBomb(r));
    case 4:
      return Buffer.from(deepYaml(r, r.int(2, 200)));
    case 5: // indentation broken
      lines[at] = r.pick(['\t', ' ', '   ', '']) + lines[at];
      return Buffer.from(lines.join('\n'));
    case 6: // a BOM, CRLF line ends, a NUL
      return Buffer.from(
        r.pick([`\ufeff${text}`, text.replaceAll('\n', '\r\n'), text.replaceAll('\n', '\r'), `${text}\u0000`, `\u0085${text}`]),
      );
    case 7:
      return Buffer.from(
        `${text}\n${r.pick(['x: ', '- ', '? ', ': ', '{', '[', '"', "'", '|\n  a', '>\n b', '#', '&a *a'])}${randomString(r, 8)}`,
      );
    default:
      return mutateBytes(r, Buffer.from(text));
  }
}

/** A deeply nested YAML body: the inputs of the unbounded YAML depth (a parser that stalls). */
export function deepYamlBody(r: Random): Buffer {
  return Buffer.from(deepYaml(r, Math.max(1001, nestingDepth(r) * r.int(1, 50))));
}
