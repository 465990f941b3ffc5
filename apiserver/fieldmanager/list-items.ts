/**
 * List items as path elements (structured-merge-diff's listItemToPathElement): by key fields in an
 * associative list, by value in a set, by index in an atomic list; and the errors of items that cannot
 * be named, reported with their list's path the way Kubernetes prints them.
 */
import type { ListAtom } from './typed-schema.js';
import type { Path, PathElement } from './path-element.js';
import { indexElement, keyElement, pathString, valueElement } from './path-element.js';

export interface TypedIssue {
  path: Path;
  message: string;
}

/** A value that does not fit its schema the way ownership tracking needs (e.g. a list item without its key). */
export class TypedValueError extends Error {
  constructor(readonly issues: readonly TypedIssue[]) {
    const one = (i: TypedIssue) => (i.path.length ? `${pathString(i.path)}: ${i.message}` : i.message);
    super(issues.length === 1 ? one(issues[0]) : ['errors:', ...issues.map((i) => `  ${one(i)}`)].join('\n'));
    this.name = 'TypedValueError';
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The element naming item `index` of a list, or the reason it has none. */
export function listItemElement(atom: ListAtom, item: unknown, index: number): PathElement | string {
  if (atom.atomic) return indexElement(index);
  if (atom.keys.length === 0) {
    if (isObject(item)) return "associative list without keys has an element that's a map type";
    if (Array.isArray(item)) return 'not supported: associative list with lists as elements';
    if (item === null) return "associative list without keys has an element that's an explicit null";
    return valueElement(item);
  }
  if (item === null) return 'associative list with keys may not have a null element';
  if (!isObject(item)) return 'associative list with keys may not have non-map elements';
  const fields: [string, unknown][] = [];
  for (const key of atom.keys) {
    if (Object.hasOwn(item, key) && item[key] !== undefined) fields.push([key, item[key]]);
    else if (Object.hasOwn(atom.keyDefaults, key)) fields.push([key, atom.keyDefaults[key]]);
    else return `associative list with keys has an element that omits key field ${JSON.stringify(key)} (and doesn't have default value)`;
  }
  return keyElement(fields);
}

export interface IndexedList {
  /** Elements in list order, each once. */
  order: PathElement[];
  /** Items by their element's text (the first one when repeated). */
  items: Map<string, unknown>;
}

/**
 * The items of a list by element. Items that cannot be named are reported and skipped; a repeated
 * element is reported unless duplicates are allowed (stored objects may hold them), and skipped.
 */
export function indexList(atom: ListAtom, list: unknown, path: Path, allowDuplicates: boolean, issues: TypedIssue[]): IndexedList {
  const out: IndexedList = { order: [], items: new Map() };
  if (!Array.isArray(list)) return out;
  list.forEach((item, i) => {
    const pe = listItemElement(atom, item, i);
    if (typeof pe === 'string') {
      issues.push({ path: [...path], message: `element ${i}: ${pe}` });
      return;
    }
    if (out.items.has(pe.id)) {
      if (!allowDuplicates) issues.push({ path: [...path], message: `duplicate entries for key ${pathString([pe])}` });
      return;
    }
    out.items.set(pe.id, item);
    out.order.push(pe);
  });
  return out;
}
