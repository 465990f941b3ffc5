/**
 * A set of field paths, stored as a trie (structured-merge-diff's fieldpath.Set): at each level the
 * elements that are members (the path ends there) and the children (paths go deeper). A path can be
 * both, e.g. a list item that is owned and whose fields are owned. Sets are values: built in place
 * (insert, addMember, descend), then never changed; the operations answer new sets or, when nothing
 * changes, an operand, and share unchanged levels.
 */
import type { Path, PathElement } from './path-element.js';
import { compareElements } from './path-element.js';

interface Child {
  pe: PathElement;
  set: FieldSet;
}

/** The maps of a level that has no members or no children yet: shared, never written. */
const NO_MEMBERS: ReadonlyMap<string, PathElement> = new Map();
const NO_CHILDREN: ReadonlyMap<string, Child> = new Map();

export class FieldSet {
  // Allocated on the first write: most levels of a set have members only (or nothing).
  private members = NO_MEMBERS as Map<string, PathElement>;
  private children = NO_CHILDREN as Map<string, Child>;

  static of(...paths: Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  /** Adds a path (the empty path, the whole object, is not tracked). */
  insert(path: Path): void {
    if (path.length === 0) return;
    let s: FieldSet = this;
    for (let i = 0; i < path.length - 1; i++) s = s.descend(path[i]);
    s.addMember(path[path.length - 1]);
  }

  addMember(pe: PathElement): void {
    this.setMember(pe.id, pe);
  }

  private setMember(key: string, pe: PathElement): void {
    if (this.members === NO_MEMBERS) this.members = new Map();
    this.members.set(key, pe);
  }

  /** The child set under pe, created when missing (for building a set in place). */
  descend(pe: PathElement): FieldSet {
    let c = this.children.get(pe.id);
    if (!c) {
      c = { pe, set: new FieldSet() };
      if (this.children === NO_CHILDREN) this.children = new Map();
      this.children.set(pe.id, c);
    }
    return c.set;
  }

  /** Puts a child set under pe (dropped when empty). */
  setChild(pe: PathElement, set: FieldSet, key = pe.id): void {
    if (set.isEmpty()) return;
    if (this.children === NO_CHILDREN) this.children = new Map();
    this.children.set(key, { pe, set });
  }

  has(path: Path): boolean {
    if (path.length === 0) return false;
    let s: FieldSet | undefined = this;
    for (let i = 0; i < path.length - 1 && s; i++) s = s.children.get(path[i].id)?.set;
    return !!s && s.members.has(path[path.length - 1].id);
  }

  hasMember(pe: PathElement): boolean {
    return this.members.has(pe.id);
  }

  /** The paths under pe, relative to it (an empty set when there are none). Read-only. */
  withPrefix(pe: PathElement): FieldSet {
    return this.children.get(pe.id)?.set ?? EMPTY;
  }

  isEmpty(): boolean {
    if (this.members.size) return false;
    for (const c of this.children.values()) if (!c.set.isEmpty()) return false;
    return true;
  }

  union(other: FieldSet): FieldSet {
    // Sets are never changed once built, so an operand can be the answer.
    if (other.isEmpty()) return this;
    if (this.isEmpty()) return other;
    const out = new FieldSet();
    for (const [k, pe] of this.members) out.setMember(k, pe);
    for (const [k, pe] of other.members) out.setMember(k, pe);
    for (const [k, c] of this.children) {
      const o = other.children.get(k);
      out.setChild(c.pe, o ? c.set.union(o.set) : c.set, k);
    }
    for (const [k, c] of other.children) if (!this.children.has(k)) out.setChild(c.pe, c.set, k);
    return out;
  }

  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [k, pe] of this.members) if (other.members.has(k)) out.setMember(k, pe);
    for (const [k, c] of this.children) {
      const o = other.children.get(k);
      if (o) out.setChild(c.pe, c.set.intersection(o.set), k);
    }
    return out;
  }

  /** Paths of this set not in other; a member of other does not remove the paths below it. */
  difference(other: FieldSet): FieldSet {
    if (other.isEmpty()) return this;
    const out = new FieldSet();
    for (const [k, pe] of this.members) if (!other.members.has(k)) out.setMember(k, pe);
    for (const [k, c] of this.children) {
      const o = other.children.get(k);
      out.setChild(c.pe, o ? c.set.difference(o.set) : c.set, k);
    }
    return out;
  }

  /** Paths of this set not in other, where a member of other also removes everything below it. */
  recursiveDifference(other: FieldSet): FieldSet {
    if (other.isEmpty()) return this;
    const out = new FieldSet();
    for (const [k, pe] of this.members) if (!other.members.has(k)) out.setMember(k, pe);
    for (const [k, c] of this.children) {
      if (other.members.has(k)) continue;
      const o = other.children.get(k);
      out.setChild(c.pe, o ? c.set.recursiveDifference(o.set) : c.set, k);
    }
    return out;
  }

  /** Members at this level, in set order. */
  sortedMembers(): PathElement[] {
    const members = [...this.members.values()];
    return members.length > 1 ? members.sort(compareElements) : members;
  }

  /** Children at this level, in set order. */
  sortedChildren(): { pe: PathElement; set: FieldSet }[] {
    return [...this.children.values()].filter((c) => !c.set.isEmpty()).sort((a, b) => compareElements(a.pe, b.pe));
  }

  /** Every path, depth first: a level's members, then its children (each in set order). */
  paths(prefix: Path = []): Path[] {
    const out: Path[] = this.sortedMembers().map((pe) => [...prefix, pe]);
    for (const c of this.sortedChildren()) out.push(...c.set.paths([...prefix, c.pe]));
    return out;
  }
}

const EMPTY = new FieldSet();
