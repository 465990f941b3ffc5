/**
 * Nesting limits of request bodies, checked before a parser can recurse on them. Kubernetes refuses JSON
 * nested deeper than 10000 levels (its decoder's maxNestingDepth) and YAML deeper than 10000 flow levels or
 * indents (go-yaml: "exceeded max depth of 10000"), in a scan that never recurses. Ours are lower because what
 * runs after decoding recurses: JSON stops at 1000; YAML at 500, since the yaml library composes a document
 * recursively and runs out of stack near 800 levels (and, catching that per node, a body of many such subtrees
 * held a worker for a minute).
 */
import YAML, { Composer, type Document, Lexer, Parser } from 'yaml';

export const MAX_JSON_DEPTH = 1000;
export const MAX_YAML_DEPTH = 500;

/** A body nested deeper than its limit; the message is Kubernetes' wording with our limit. */
export class DepthError extends Error {
  constructor(limit: number) {
    super(`exceeded max depth of ${limit}`);
    this.name = 'DepthError';
  }
}

/**
 * Throws DepthError when JSON text opens more than `max` arrays and objects at once. One pass over the
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
      if (++depth > max) throw new DepthError(max);
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
}

/** The parser's stack holds the document and the node being read besides one entry per open collection. */
const PARSER_STACK_SLACK = 2;

/**
 * The YAML documents of `text` (as YAML.parseAllDocuments), refused with DepthError as soon as the parser
 * holds more than `max` open collections: the composer, which recurses once per level, never sees them.
 * The parser itself keeps its own stack, so the check costs one comparison per token. A body with errors is
 * parsed again by YAML.parseAllDocuments, now known to be shallow, for the library's errors with their line
 * and column.
 */
export function parseYamlDocuments(text: string, max = MAX_YAML_DEPTH): Document.Parsed[] {
  const parser = new Parser();
  function* tokens() {
    for (const lexeme of new Lexer().lex(text)) {
      yield* parser.next(lexeme);
      if (parser.stack.length > max + PARSER_STACK_SLACK) throw new DepthError(max);
    }
    yield* parser.end();
  }
  const docs = Array.from(new Composer({ uniqueKeys: false }).compose(tokens()));
  return docs.some((d) => d.errors.length) ? YAML.parseAllDocuments(text, { uniqueKeys: false }) : docs;
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
