/**
 * Duplicate keys in a request body, which JSON.parse and YAML's toJS silently resolve (last wins):
 * found by a second, shallow scan so fieldValidation can warn about them or refuse them, as
 * Kubernetes' strict decoding does. Paths are like `metadata.labels.app`, `spec.ports[1].name`.
 */
import { isMap, isSeq, isScalar, type Document } from 'yaml';

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
  const found: string[] = [];
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
            const path = pathOf(top);
            found.push(path ? `${path}.${key}` : key);
          }
          top.keys.add(key);
          top.key = key;
        }
      }
      i = j;
    } else if (ch === 123 /* { */ || ch === 91 /* [ */) {
      const at = top ? (top.keys ? top.key : top.index) : undefined;
      top = { parent: top, at, keys: ch === 123 ? new Set() : undefined, key: undefined, index: 0 };
    } else if (ch === 125 /* } */ || ch === 93 /* ] */) {
      top = top?.parent;
    } else if (ch === 44 /* , */) {
      if (top && !top.keys) top.index++;
    }
  }
  return found;
}

/** Duplicate keys of a parsed YAML document (parsed with uniqueKeys: false). */
export function duplicateYamlFields(doc: Document): string[] {
  const found: string[] = [];
  const walk = (node: unknown, path: string): void => {
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        const key = String(isScalar(pair.key) ? pair.key.value : pair.key);
        const p = path ? `${path}.${key}` : key;
        if (seen.has(key)) found.push(p);
        seen.add(key);
        walk(pair.value, p);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => walk(item, `${path}[${i}]`));
    }
  };
  walk(doc.contents, '');
  return found;
}
