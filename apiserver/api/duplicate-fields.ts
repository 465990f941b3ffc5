/**
 * Duplicate keys in a request body, which JSON.parse and YAML's toJS silently resolve (last wins):
 * found by a second, shallow scan so fieldValidation can warn about them or refuse them, as
 * Kubernetes' strict decoding does. Paths are like `metadata.labels.app`, `spec.ports[1].name`.
 */
import { isMap, isSeq, isScalar, type Document } from 'yaml';

/** Duplicate keys of a JSON text that JSON.parse accepted. */
export function duplicateJsonFields(text: string): string[] {
  const found: string[] = [];
  // A stack of containers: objects keep their keys seen so far, arrays their next index.
  type Frame = { kind: 'object'; path: string; keys: Set<string>; key?: string } | { kind: 'array'; path: string; index: number };
  const stack: Frame[] = [];
  const childPath = (f: Frame | undefined): string => {
    if (!f) return '';
    if (f.kind === 'array') return `${f.path}[${f.index}]`;
    return f.path ? `${f.path}.${f.key}` : (f.key ?? '');
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      let j = i + 1;
      let raw = '';
      while (text[j] !== '"') {
        if (text[j] === '\\') {
          raw += text.slice(j, j + 2);
          j += 2;
        } else raw += text[j++];
      }
      const top = stack.at(-1);
      // A string is a key when it is followed (after blanks) by a colon.
      let k = j + 1;
      while (k < text.length && /\s/.test(text[k])) k++;
      if (top?.kind === 'object' && text[k] === ':') {
        const key = JSON.parse(`"${raw}"`) as string;
        if (top.keys.has(key)) found.push(top.path ? `${top.path}.${key}` : key);
        top.keys.add(key);
        top.key = key;
      }
      i = j;
    } else if (ch === '{' || ch === '[') {
      const path = childPath(stack.at(-1));
      stack.push(ch === '{' ? { kind: 'object', path, keys: new Set() } : { kind: 'array', path, index: 0 });
    } else if (ch === '}' || ch === ']') {
      stack.pop();
    } else if (ch === ',') {
      const top = stack.at(-1);
      if (top?.kind === 'array') top.index++;
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
