/**
 * Duplicate keys in a request body, which JSON.parse and YAML's toJS silently resolve (last wins):
 * found by a second, shallow scan so fieldValidation can warn about them or refuse them, as
 * Kubernetes' strict decoding does. A JSON body's are paths, like `metadata.labels.app`,
 * `spec.ports[1].name` (Kubernetes' `duplicate field "…"`); a YAML body's are worded as sigs.k8s.io/yaml's
 * strict conversion (yaml.v2) words them, `line 9: key "foo" already set in map`.
 */
import { isAlias, isMap, isSeq, isScalar, type Document, type Node } from 'yaml';

/**
 * A container being scanned: where it sits in its parent (a key or an index, taken when it opened),
 * and for an object the keys seen so far and the current one, for an array the current index.
 * Paths are only built for a duplicate found, so a clean body costs no string building.
 */
interface Frame {
  parent: Frame | undefined;
  at: string | number | undefined;
  keys: Set<string> | undefined;
  key: string | undefined;
  index: number;
  /** The duplicate whose value this container is: done when it closes. */
  closes: JsonDuplicate | undefined;
}

/** A key a JSON text held twice: in its object, where its value starts, and when its value ended. */
interface JsonDuplicate {
  frame: Frame;
  key: string;
  value: number;
  done: number;
}

function pathOf(f: Frame): string {
  if (!f.parent) return '';
  const base = pathOf(f.parent);
  if (typeof f.at === 'number') return `${base}[${f.at}]`;
  return base ? `${base}.${f.at}` : String(f.at);
}

const QUOTE = 34;

function isBlank(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

/** Duplicate keys of a JSON text that JSON.parse accepted. */
export function duplicateJsonFields(text: string): string[] {
  return scanJson(text).map((d) => {
    const path = pathOf(d.frame);
    return path ? `${path}.${d.key}` : d.key;
  });
}

/**
 * Duplicate keys of a JSON text that JSON.parse accepted, sent as YAML: as yaml.v2 words them (JSON is
 * YAML's flow style), in its order.
 */
export function duplicateJsonKeysAsYaml(text: string): string[] {
  const found = scanJson(text).sort((a, b) => a.done - b.done);
  const lines = lineNumbers(
    text,
    found.map((d) => d.value),
  );
  return found.map((d, i) => alreadySet(lines[i], goQuote(d.key)));
}

/**
 * The duplicate keys of a JSON text, in the order they are met; `done` orders them as yaml.v2 reports
 * them, when their value has been decoded (a value's own duplicates before its key's).
 */
function scanJson(text: string): JsonDuplicate[] {
  const found: JsonDuplicate[] = [];
  let done = 0;
  // A duplicate whose value, the next container to open, is not yet open.
  let awaiting: JsonDuplicate | undefined;
  let top: Frame | undefined;
  // The next backslash at or after where a string scan stands (Infinity: none left): strings are
  // skipped with indexOf, and only a backslash before the next quote makes a scan look closer.
  let backslash = -1;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === QUOTE) {
      let j = i + 1;
      let escaped = false;
      for (;;) {
        const quote = text.indexOf('"', j);
        if (backslash < j) {
          const b = text.indexOf('\\', j);
          backslash = b === -1 ? Number.POSITIVE_INFINITY : b;
        }
        if (backslash > quote) {
          j = quote;
          break;
        }
        // An escape before that quote: skip it (an escaped quote or backslash included).
        escaped = true;
        j = backslash + 2;
      }
      // A string is a key when it is followed (after blanks) by a colon.
      if (top?.keys) {
        let k = j + 1;
        while (k < text.length && isBlank(text.charCodeAt(k))) k++;
        if (text[k] === ':') {
          const key = escaped ? (JSON.parse(text.slice(i, j + 1)) as string) : text.slice(i + 1, j);
          if (top.keys.has(key)) {
            let v = k + 1;
            while (v < text.length && isBlank(text.charCodeAt(v))) v++;
            const d: JsonDuplicate = { frame: top, key, value: v, done: -1 };
            const c = text.charCodeAt(v);
            if (c === 123 || c === 91) awaiting = d;
            else d.done = done++;
            found.push(d);
          }
          top.keys.add(key);
          top.key = key;
        }
      }
      i = j;
    } else if (ch === 123 /* { */ || ch === 91 /* [ */) {
      const at = top ? (top.keys ? top.key : top.index) : undefined;
      top = { parent: top, at, keys: ch === 123 ? new Set() : undefined, key: undefined, index: 0, closes: awaiting };
      awaiting = undefined;
    } else if (ch === 125 /* } */ || ch === 93 /* ] */) {
      if (top?.closes) top.closes.done = done++;
      top = top?.parent;
    } else if (ch === 44 /* , */) {
      if (top && !top.keys) top.index++;
    }
  }
  return found;
}

/** yaml.v2's error for a document's duplicate keys: `yaml: unmarshal errors:` and one indented line each. */
export function yamlUnmarshalErrors(duplicates: string[]): string {
  return `yaml: unmarshal errors:\n  ${duplicates.join('\n  ')}`;
}

/** `line 9: key "foo" already set in map`: yaml.v2's words for a key given twice in a mapping. */
function alreadySet(line: number, key: string): string {
  return `line ${line}: key ${key} already set in map`;
}

/**
 * The 1-based line of each offset of the text, as yaml.v2 counts lines (CR LF, LF, CR, NEL, LS and PS
 * each end one). One pass over the text, then a binary search per offset.
 */
function lineNumbers(text: string, offsets: number[]): number[] {
  if (!offsets.length) return [];
  const ends: number[] = [];
  for (const m of text.matchAll(/\r\n|[\n\r\u0085\u2028\u2029]/g)) ends.push(m.index);
  return offsets.map((offset) => {
    let lo = 0;
    let hi = ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ends[mid] < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1;
  });
}

/** Runes Go's strconv.Quote escapes as \u or \U: what unicode.IsPrint refuses beyond ASCII. */
const NOT_PRINTABLE = /[\p{C}\p{Zl}\p{Zp}]|(?! )\p{Zs}/u;

const NAMED_ESCAPES: Record<string, string> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '\\': '\\\\',
  '"': '\\"',
};

/** A string as Go's %#v (strconv.Quote) shows it. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const named = NAMED_ESCAPES[ch];
    const r = ch.codePointAt(0) as number;
    if (named) out += named;
    else if (r < 0x20 || r === 0x7f) out += `\\x${r.toString(16).padStart(2, '0')}`;
    else if (r >= 0x80 && NOT_PRINTABLE.test(ch)) {
      out += r < 0x10000 ? `\\u${r.toString(16).padStart(4, '0')}` : `\\U${r.toString(16).padStart(8, '0')}`;
    } else out += ch;
  }
  return `${out}"`;
}

/** A float64 as Go's %v shows it (%g, shortest): its shortest digits, in exponent form below 1e-4 and from 1e6. */
function goFloat(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? '+Inf' : '-Inf';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const [mantissa, exponent] = v.toExponential().split('e');
  const exp = Number(exponent);
  if (exp < -4 || exp >= 6) {
    return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return String(v);
}

/**
 * A mapping key as yaml.v2 holds it, what makes two keys the same: its type (a string, an int, a
 * float, a bool, null; `?` for a collection, `*` an alias) and its value.
 */
function yamlKeyId(key: unknown, text: string): string {
  if (isAlias(key)) return `*${key.source}`;
  if (!isScalar(key)) return `?${String(key)}`;
  const v = key.value;
  if (typeof v === 'string') return `s${v}`;
  if (typeof v === 'number') {
    const src = key.range ? text.slice(key.range[0], key.range[1]) : String(v);
    return !/^[-+]?0[xo]/i.test(src) && /[.eEn]/.test(src) ? `f${v}` : `i${v}`;
  }
  if (typeof v === 'bigint') return `i${v}`;
  if (v === null || v === undefined) return 'n';
  return `b${String(v)}`;
}

/** A key (by its yamlKeyId) as Go's %#v shows it: a string quoted, a number or a bool as it is, null as <nil>. */
function shownKey(id: string): string {
  const rest = id.slice(1);
  switch (id[0]) {
    case 's':
    case '?':
      return goQuote(rest);
    case 'f':
      return goFloat(Number(rest));
    case 'n':
      return '<nil>';
    case '*':
      return id;
    default:
      return rest;
  }
}

/**
 * Where yaml.v2 places a mapping's value: at its anchor or tag when it has one (the value itself
 * may start lines below), else where it starts; an empty value where it would have stood.
 */
function valueStart(text: string, keyEnd: number, value: Node): number {
  const start = value.range ? value.range[0] : keyEnd;
  if (!value.anchor && !value.tag) return start;
  let comment = false;
  for (let i = keyEnd; i < start; i++) {
    const c = text[i];
    if (comment) comment = c !== '\n' && c !== '\r';
    else if (c === '#') comment = true;
    else if (c === '&' || c === '!') return i;
  }
  return start;
}

/**
 * Duplicate keys of a parsed YAML document (parsed with uniqueKeys: false) from its text, as yaml.v2
 * words them: the 1-based line of the duplicate's value, in its order (a value's own duplicates
 * before its key's). An alias is not walked again (yaml.v2 would report an anchored value's
 * duplicates once more for each alias of it).
 */
export function duplicateYamlKeys(doc: Document, text: string): string[] {
  const found: { key: string; offset: number }[] = [];
  const walk = (node: unknown): void => {
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        walk(pair.value);
        const id = yamlKeyId(pair.key, text);
        if (seen.has(id)) {
          const keyEnd = isScalar(pair.key) || isAlias(pair.key) || isMap(pair.key) || isSeq(pair.key) ? (pair.key.range?.[1] ?? 0) : 0;
          const value = pair.value as Node | null;
          found.push({ key: shownKey(id), offset: value ? valueStart(text, keyEnd, value) : keyEnd });
        }
        seen.add(id);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) walk(item);
    }
  };
  walk(doc.contents);
  const lines = lineNumbers(
    text,
    found.map((f) => f.offset),
  );
  return found.map((f, i) => alreadySet(lines[i], f.key));
}
