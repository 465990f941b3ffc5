/**
 * Limits of request bodies, checked while they are decoded, before a parser can recurse or spend long on them.
 *
 * Nesting. Kubernetes refuses JSON
 * nested deeper than 10000 levels (its decoder's maxNestingDepth) and YAML deeper than 10000 flow levels or
 * indents (go-yaml: "exceeded max depth of 10000"), in a scan that never recurses. Ours are lower because what
 * runs after decoding recurses: JSON stops at 1000; YAML at 500, since the yaml library composes a document
 * recursively and runs out of stack near 800 levels (and, catching that per node, a body of many such subtrees
 * held a worker for a minute).
 *
 * Size. The yaml library spends 1.5-5 µs per token, so a 3 MB body of `- []` lines held a worker 6 s; a YAML body
 * of more than MAX_YAML_TOKENS tokens (about 1 MB of block-style key/value pairs) is refused. JSON is YAML: a YAML
 * body that is JSON (kubectl sends its apply configurations so) is parsed as JSON, with no such limit.
 */
import YAML, { Composer, type Document, Lexer, Parser } from 'yaml';

export const MAX_JSON_DEPTH = 1000;
export const MAX_YAML_DEPTH = 500;
export const MAX_YAML_TOKENS = 250_000;

/** A body past a limit. Too deep: Kubernetes' wording with our limit. */
export class BodyLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BodyLimitError';
  }
}

export function tooDeep(limit: number): BodyLimitError {
  return new BodyLimitError(`exceeded max depth of ${limit}`);
}

/**
 * Throws BodyLimitError when JSON text opens more than `max` arrays and objects at once. One pass over the
 * characters that skips strings: exact for valid JSON, and JSON.parse (which does not recurse) refuses the rest.
 */
export function checkJsonDepth(text: string, max = MAX_JSON_DEPTH): void {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip to the closing quote: one not preceded by an odd number of backslashes.
      for (;;) {
        i = text.indexOf('"', i + 1);
        if (i < 0) return;
        let backslashes = 0;
        while (text.charCodeAt(i - 1 - backslashes) === 0x5c) backslashes++;
        if (backslashes % 2 === 0) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) throw tooDeep(max);
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
}

/** The parser's stack holds the document and the node being read besides one entry per open collection. */
const PARSER_STACK_SLACK = 2;

/**
 * The YAML documents of `text` (as YAML.parseAllDocuments), refused with BodyLimitError as soon as the parser
 * holds more than `max` open collections (the composer, which recurses once per level, never sees them) or
 * has read more than MAX_YAML_TOKENS tokens. The parser keeps its own stack, so the checks cost a comparison
 * per token. A body with errors is parsed again by YAML.parseAllDocuments, now known to be small and shallow,
 * for the library's errors with their line and column.
 */
export function parseYamlDocuments(text: string, max = MAX_YAML_DEPTH, maxTokens = MAX_YAML_TOKENS): Document.Parsed[] {
  const parser = new Parser();
  function* tokens() {
    let count = 0;
    for (const lexeme of new Lexer().lex(text)) {
      yield* parser.next(lexeme);
      if (parser.stack.length > max + PARSER_STACK_SLACK) throw tooDeep(max);
      if (++count > maxTokens) throw new BodyLimitError(`more than ${maxTokens} YAML tokens (send a body this large as JSON)`);
    }
    yield* parser.end();
  }
  const docs = Array.from(new Composer({ uniqueKeys: false, logLevel: 'error' }).compose(tokens()));
  return docs.some((d) => d.errors.length) ? YAML.parseAllDocuments(text, { uniqueKeys: false, logLevel: 'error' }) : docs;
}

/**
 * A YAML body that is JSON, parsed as JSON (the same value, ~10x faster), or undefined for YAML that is not
 * JSON and for JSON nested deeper than `max` (parseYamlDocuments then refuses it, or parses YAML whose quoted
 * brackets the JSON scan miscounted).
 */
export function parseYamlAsJson(text: string, max = MAX_YAML_DEPTH): { value: unknown } | undefined {
  const start = text.search(/\S/);
  if (text[start] !== '{' && text[start] !== '[') return undefined;
  try {
    checkJsonDepth(text, max);
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/**
 * The depth of a decoded value (1 for an empty object or array), walked without recursion; stops counting
 * past `max`. YAML aliases can nest an anchored collection inside another, beyond what the text shows.
 */
export function depthOf(value: unknown, max: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (d > deepest) deepest = d;
    if (deepest > max) return deepest;
    for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return deepest;
}
