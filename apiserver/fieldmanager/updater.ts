/**
 * Ownership bookkeeping of one write (structured-merge-diff's merge.Updater), over plain JSON values
 * of one schema:
 * - update: the writer takes every field it added or changed, whoever owned it; removed fields leave
 *   every owner.
 * - apply: the configuration is merged into the live object; the applier owns exactly the fields of
 *   its configuration; fields it applied last time and dropped now are removed unless another manager
 *   owns them; changing a field another manager owns is a conflict unless forced, which moves it.
 * Ignored fields (those the kind's strategy resets, e.g. status on the main resource) are owned by
 * nobody through this write.
 */
import type { Schema } from '../api/schema.js';
import { jsonEqual } from '../api/object.js';
import { FieldSet } from './field-set.js';
import { compare, excludeFields, type Comparison } from './compare.js';
import { merge } from './merge.js';
import type { Path } from './path-element.js';
import { ensureNamedFieldsAreMembers, removeItems } from './remove-items.js';
import { toFieldSet } from './to-field-set.js';
import type { TypeResolver } from './typed-schema.js';

/** The fields one manager owns, with the API version it wrote them in and whether it applied them. */
export interface VersionedSet {
  set: FieldSet;
  apiVersion: string;
  applied: boolean;
}

/** Owned fields by manager identifier. */
export type ManagedFieldSets = Map<string, VersionedSet>;

export interface Conflict {
  /** The manager identifier of the current owner. */
  manager: string;
  path: Path;
}

/** An apply that would change fields other managers own. */
export class ApplyConflicts extends Error {
  constructor(readonly conflicts: readonly Conflict[]) {
    super(`${conflicts.length} conflict(s)`);
    this.name = 'ApplyConflicts';
  }
}

export interface ApplyResult {
  /** The new object, or null when the apply changes nothing. */
  object: unknown | null;
  managers: ManagedFieldSets;
}

export class Updater {
  constructor(
    private readonly types: TypeResolver,
    private readonly schema: Schema,
    /** Fields no write owns (the kind's reset fields). */
    private readonly ignored?: FieldSet,
  ) {}

  /** Ownership after a create, update or non-apply patch: the new managers. */
  update(live: unknown, next: unknown, apiVersion: string, managers: ManagedFieldSets, manager: string): ManagedFieldSets {
    const out = new Map(managers);
    const c = this.reconcile(live, next, out, manager, true);
    const prev = out.get(manager)?.set ?? new FieldSet();
    let set = prev.union(c.modified).union(c.added).difference(c.removed);
    if (this.ignored) set = set.recursiveDifference(this.ignored);
    if (set.isEmpty()) out.delete(manager);
    else out.set(manager, { set, apiVersion, applied: false });
    return out;
  }

  /** Merges an applied configuration into the live object; throws ApplyConflicts unless forced. */
  apply(live: unknown, config: unknown, apiVersion: string, managers: ManagedFieldSets, manager: string, force: boolean): ApplyResult {
    const out = new Map(managers);
    let merged = merge(live, config, this.schema, this.types);
    const lastSet = out.get(manager);
    let set = toFieldSet(config, this.schema, this.types, false);
    if (this.ignored) set = set.recursiveDifference(this.ignored);
    out.set(manager, { set, apiVersion, applied: true });
    merged = this.prune(merged, out, lastSet, set);
    this.reconcile(live, merged, out, manager, force);
    return { object: jsonEqual(live, merged) ? null : merged, managers: out };
  }

  /**
   * Takes what `writer` added or changed from every other manager (a conflict when not forced) and
   * what it removed from everyone; drops managers left with nothing. Mutates managers.
   */
  private reconcile(live: unknown, next: unknown, managers: ManagedFieldSets, writer: string, force: boolean): Comparison {
    const c = excludeFields(compare(live, next, this.schema, this.types), this.ignored);
    const changed = c.modified.union(c.added);
    const conflicts = new Map<string, FieldSet>();
    for (const [manager, vs] of managers) {
      if (manager === writer) continue;
      const conflict = vs.set.intersection(changed);
      if (!conflict.isEmpty()) conflicts.set(manager, conflict);
    }
    if (!force && conflicts.size) {
      const list: Conflict[] = [];
      for (const manager of [...conflicts.keys()].sort()) for (const path of conflicts.get(manager)!.paths()) list.push({ manager, path });
      throw new ApplyConflicts(list);
    }
    for (const [manager, vs] of managers) {
      if (manager === writer) continue;
      const taken = conflicts.get(manager);
      let set = taken ? vs.set.difference(taken) : vs.set;
      if (!c.removed.isEmpty()) set = set.difference(c.removed);
      if (set !== vs.set) managers.set(manager, { ...vs, set });
    }
    for (const [manager, vs] of managers) if (vs.set.isEmpty()) managers.delete(manager);
    return c;
  }

  /**
   * Removes what the applier applied last time and no longer applies, unless some manager (the
   * applier's new configuration included) still owns it, and leaving alone anything the last set did
   * not name.
   */
  private prune(merged: unknown, managers: ManagedFieldSets, lastSet: VersionedSet | undefined, applied: FieldSet): unknown {
    // Nothing was dropped when the new configuration still sets every field of the last one (the
    // usual re-apply): everything the steps below could remove is owned by the applier again.
    if (!lastSet || lastSet.set.difference(applied).isEmpty()) return merged;
    const named = (s: FieldSet) => ensureNamedFieldsAreMembers(s, this.schema, this.types);
    const fieldsOf = (v: unknown) => named(toFieldSet(v, this.schema, this.types));
    const remove = (s: FieldSet) => removeItems(merged, s, this.schema, this.types) ?? {};
    const last = named(lastSet.set);
    let owned = new FieldSet();
    for (const vs of managers.values()) owned = owned.union(vs.set);
    const mergedSet = fieldsOf(merged);
    // Drop the last applied fields, then add back everything someone still owns...
    let pruned = remove(last);
    pruned = remove(mergedSet.difference(fieldsOf(pruned).union(named(owned))));
    // ...and anything that was removed without having been in the last applied set.
    return remove(mergedSet.difference(fieldsOf(pruned)).intersection(last));
  }
}
