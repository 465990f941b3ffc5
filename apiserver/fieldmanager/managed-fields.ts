/**
 * metadata.managedFields ↔ the field sets ownership works on. Each entry is keyed by its manager
 * identifier: the entry's manager, operation, subresource and (for updates only, so an applier keeps
 * one entry across versions) apiVersion, as the JSON Kubernetes builds it. Entries come out sorted:
 * Apply before Update, then by time, manager, apiVersion and subresource.
 */
import type { ManagedFieldsEntry } from '../api/object-meta.js';
import { fieldsToSet, setToFields } from './fields-v1.js';
import type { ManagedFieldSets } from './updater.js';
import { messageOf } from '../api/thrown.js';

/** The owned fields and, per manager, the time of its last change (RFC 3339; absent for none). */
export interface Managed {
  fields: ManagedFieldSets;
  times: Map<string, string | undefined>;
}

export function emptyManaged(): Managed {
  return { fields: new Map(), times: new Map() };
}

export const OPERATION_APPLY = 'Apply';
export const OPERATION_UPDATE = 'Update';

/** The fields of an entry that make up its identifier, in Kubernetes' JSON order. */
interface ManagerIdentity {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  subresource?: string;
}

/**
 * The identities of the identifiers made or parsed lately (every write decodes and encodes its
 * entries again): identifier → identity, the oldest dropped past the bound. Identities are never
 * changed once made.
 */
const IDENTIFIERS_CACHED = 1000;
const identities = new Map<string, Readonly<ManagerIdentity>>();

function remember(id: string, identity: ManagerIdentity): void {
  if (identities.size >= IDENTIFIERS_CACHED) identities.delete(identities.keys().next().value as string);
  identities.set(id, identity);
}

/**
 * Identifiers made lately, by their identity's values (manager → operation → apiVersion →
 * subresource; '' where the identifier leaves one out). The values are compared as they are (a
 * number is not its text), so a hit is always the identifier JSON.stringify would make. Dropped
 * whole past the bound.
 */
type Level<T> = Map<unknown, T>;
let identifiers: Level<Level<Level<Level<string>>>> = new Map();
let identifiersCount = 0;

function cachedIdentifier(manager: unknown, operation: unknown, apiVersion: unknown, subresource: unknown, make: () => string): string {
  let byOperation = identifiers.get(manager);
  if (!byOperation) identifiers.set(manager, (byOperation = new Map()));
  let byVersion = byOperation.get(operation);
  if (!byVersion) byOperation.set(operation, (byVersion = new Map()));
  let bySubresource = byVersion.get(apiVersion);
  if (!bySubresource) byVersion.set(apiVersion, (bySubresource = new Map()));
  let id = bySubresource.get(subresource);
  if (id === undefined) {
    id = make();
    if (++identifiersCount > IDENTIFIERS_CACHED) {
      identifiers = new Map();
      identifiersCount = 0;
    } else bySubresource.set(subresource, id);
  }
  return id;
}

/** A manager identifier: the entry without its fields, time and (for Apply) apiVersion, as JSON. */
export function managerIdentifier(entry: ManagerIdentity): string {
  const id: ManagerIdentity = {};
  if (entry.manager) id.manager = entry.manager;
  if (entry.operation) id.operation = entry.operation;
  if (entry.apiVersion && entry.operation !== OPERATION_APPLY) id.apiVersion = entry.apiVersion;
  if (entry.subresource) id.subresource = entry.subresource;
  return cachedIdentifier(id.manager ?? '', id.operation ?? '', id.apiVersion ?? '', id.subresource ?? '', () => {
    const text = JSON.stringify(id);
    remember(text, id);
    return text;
  });
}

/** The identity fields of a manager identifier (read-only: it may be shared). */
export function parseManagerIdentifier(id: string): Readonly<ManagerIdentity> {
  let identity = identities.get(id);
  if (identity) return identity;
  try {
    const v = JSON.parse(id) as unknown;
    identity = typeof v === 'object' && v !== null ? (v as ManagerIdentity) : { manager: id };
  } catch {
    identity = { manager: id };
  }
  remember(id, identity);
  return identity;
}

/** Thrown for managedFields that cannot be decoded. */
export class ManagedFieldsError extends Error {}

/** Decodes metadata.managedFields; any invalid entry makes the whole list invalid. */
export function decodeManagedFields(entries: unknown): Managed {
  const managed = emptyManaged();
  if (entries === undefined || entries === null) return managed;
  if (!Array.isArray(entries)) throw new ManagedFieldsError('managedFields must be a list');
  entries.forEach((raw, i) => {
    const e = (typeof raw === 'object' && raw !== null ? raw : {}) as ManagedFieldsEntry;
    if (e.operation !== OPERATION_APPLY && e.operation !== OPERATION_UPDATE)
      throw new ManagedFieldsError('operation must be `Apply` or `Update`');
    if (!e.apiVersion) throw new ManagedFieldsError('apiVersion must not be empty');
    if (!e.fieldsType) throw new ManagedFieldsError(`missing fieldsType in managed fields entry ${i}`);
    if (e.fieldsType !== 'FieldsV1')
      throw new ManagedFieldsError(`invalid fieldsType ${JSON.stringify(e.fieldsType)} in managed fields entry ${i}`);
    const id = managerIdentifier(e);
    let set;
    try {
      set = fieldsToSet(e.fieldsV1 ?? {});
    } catch (err) {
      throw new ManagedFieldsError(`error decoding versioned set from entry ${i}: ${messageOf(err)}`);
    }
    managed.fields.set(id, { set, apiVersion: e.apiVersion, applied: e.operation === OPERATION_APPLY });
    managed.times.set(id, e.time);
  });
  return managed;
}

/** The entries of metadata.managedFields, sorted; undefined when nobody owns anything. */
export function encodeManagedFields(managed: Managed): ManagedFieldsEntry[] | undefined {
  if (managed.fields.size === 0) return undefined;
  const entries: ManagedFieldsEntry[] = [];
  for (const [id, vs] of managed.fields) {
    const identity = parseManagerIdentifier(id);
    const entry: ManagedFieldsEntry = {};
    if (identity.manager) entry.manager = identity.manager;
    entry.operation = vs.applied ? OPERATION_APPLY : (identity.operation ?? OPERATION_UPDATE);
    entry.apiVersion = vs.apiVersion;
    const time = managed.times.get(id);
    if (time) entry.time = time;
    entry.fieldsType = 'FieldsV1';
    entry.fieldsV1 = setToFields(vs.set);
    if (identity.subresource) entry.subresource = identity.subresource;
    entries.push(entry);
  }
  return entries.sort(compareEntries);
}

function seconds(time: string | undefined): number {
  const t = time ? Date.parse(time) : NaN;
  return Number.isNaN(t) ? 0 : Math.floor(t / 1000);
}

const cmp = (a = '', b = ''): number => (a === b ? 0 : a < b ? -1 : 1);

function compareEntries(p: ManagedFieldsEntry, q: ManagedFieldsEntry): number {
  return (
    cmp(p.operation, q.operation) ||
    seconds(p.time) - seconds(q.time) ||
    cmp(p.manager, q.manager) ||
    cmp(p.apiVersion, q.apiVersion) ||
    cmp(p.subresource, q.subresource)
  );
}
