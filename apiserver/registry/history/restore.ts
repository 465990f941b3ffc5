/**
 * Restore (history.<domain>/v1, POST …/restores): puts a deleted object back as it was just before
 * its deletion (last-deletion.ts) — same name, uid, creationTimestamp, labels, annotations,
 * ownerReferences, spec — through its resource's create path, so admission and the kind's
 * strategy run as for any create (a status the kind resets on create is reset; the object gets a
 * new resourceVersion). A Namespace comes back with every object deleted with it: those of the
 * namespace whose deletion started at or after the namespace's own (the namespace controller
 * empties a namespace before it goes), each owner with its dependents in one storage batch
 * (restore-batches.ts), so neither the garbage collector nor a workload controller sees one
 * without the other.
 *
 * Refusals write nothing: 404 for an object with no deletion in the window (or another uid than
 * asked), 409 AlreadyExists where the name is taken again, 403 unless the user may `create` every
 * object to restore (asked of the authorizer for each resource and namespace before the first
 * write). Inside a namespace restore, an object whose name was taken again meanwhile (the
 * namespace's `default` ServiceAccount, recreated by its controller) is reported as skipped.
 */
import { type ApiObject, isPlainObject } from '../../api/object.js';
import * as status from '../../api/status.js';
import type { StoreAction } from '../generic/actions.js';
import type { RequestContext } from '../generic/request-context.js';
import type { GenericStore } from '../generic/store.js';
import { type HistoryEnv, ledgerStores } from './history-env.js';
import { type LastDeletion, lastDeletion } from './last-deletion.js';
import { deletions, type Scan } from './deleted-objects.js';
import { restoreBatches, restoreOrder } from './restore-batches.js';
import { type BatchItem, createBatch } from '../generic/create-batch.js';

export interface RestoreSpec {
  /** The served group ('' or absent: core). */
  group: string;
  resource: string;
  namespace: string;
  name: string;
  uid?: string;
}

/** One object a restore wrote or left. */
export interface RestoredRef {
  apiVersion: string;
  kind: string;
  resource: string;
  namespace?: string;
  name: string;
  uid?: string;
  resourceVersion?: string;
  /** Set for an object left out: why (the Status reason) and the message. */
  reason?: string;
  message?: string;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** The body's spec, checked (422 naming the fields a Restore must have). */
export function restoreSpec(body: ApiObject, gk: status.GroupKind): RestoreSpec {
  const raw = isPlainObject(body.spec) ? body.spec : {};
  const spec = {
    group: str(raw.group) ?? '',
    resource: str(raw.resource) ?? '',
    namespace: str(raw.namespace) ?? '',
    name: str(raw.name) ?? '',
    ...(str(raw.uid) ? { uid: str(raw.uid) } : {}),
  };
  const errors = [];
  if (!spec.resource)
    errors.push({ type: 'FieldValueRequired' as const, field: 'spec.resource', detail: 'the resource of the object to restore' });
  if (!spec.name) errors.push({ type: 'FieldValueRequired' as const, field: 'spec.name', detail: 'the name of the object to restore' });
  if (errors.length) throw status.invalid(gk, body.metadata?.name ?? '', errors);
  return spec;
}

function refOf(store: GenericStore, obj: ApiObject): RestoredRef {
  const m = obj.metadata;
  return {
    apiVersion: store.def.apiVersion,
    kind: store.def.kind,
    resource: store.def.plural,
    ...(m.namespace ? { namespace: m.namespace } : {}),
    name: m.name ?? '',
    ...(m.uid ? { uid: m.uid } : {}),
    ...(m.resourceVersion ? { resourceVersion: m.resourceVersion } : {}),
  };
}

/** The object to create again: as last stored, without what only a stored object carries. */
function createBody(d: LastDeletion): ApiObject {
  const obj = structuredClone(d.object);
  const m = obj.metadata;
  delete m.resourceVersion;
  delete m.deletionTimestamp;
  delete m.deletionGracePeriodSeconds;
  return obj;
}

/** The create of d: the target kind's own admission runs (the Restore's request was admitted as a Restore only). */
function restoreItem(ctx: RequestContext, d: LastDeletion): BatchItem {
  const m = d.object.metadata;
  return {
    store: d.store,
    ctx: { ...ctx, namespace: m.namespace ?? '', admitted: false, requestName: undefined },
    input: createBody(d),
    opts: { restored: { uid: m.uid ?? '', creationTimestamp: m.creationTimestamp } },
  };
}

function restoreOne(ctx: RequestContext, d: LastDeletion): Promise<ApiObject> {
  const item = restoreItem(ctx, d);
  return d.store.create(item.ctx, item.input, item.opts);
}

/**
 * Writes what was deleted with a namespace, in owner closures (restore-batches.ts); a dry run one
 * by one. An object refused in its batch for another reason than its name taken is tried once more
 * alone after the batch (it may need another object of its batch: a Pod the ServiceAccount it names).
 */
async function restoreContents(ctx: RequestContext, items: LastDeletion[], restored: RestoredRef[], skipped: RestoredRef[]): Promise<void> {
  const skip = (d: LastDeletion, err: status.ApiError) =>
    skipped.push({ ...refOf(d.store, d.object), reason: err.status.reason ?? 'Unknown', message: err.status.message ?? '' });
  const one = async (d: LastDeletion) => {
    try {
      restored.push(refOf(d.store, await restoreOne(ctx, d)));
    } catch (err) {
      if (!status.isApiError(err)) throw err;
      skip(d, err);
    }
  };
  if (ctx.dryRun) {
    for (const d of restoreOrder(items)) await one(d);
    return;
  }
  for (const batch of restoreBatches(items)) {
    const outcomes = await createBatch(
      batch[0].store.storage,
      batch.map((d) => restoreItem(ctx, d)),
    );
    const again: LastDeletion[] = [];
    for (const [i, o] of outcomes.entries()) {
      if (o.object) restored.push(refOf(batch[i].store, o.object));
      else if (o.error.status.reason === 'AlreadyExists') skip(batch[i], o.error);
      else again.push(batch[i]);
    }
    for (const d of again) await one(d);
  }
}

/** The objects deleted with namespace `ns` (deletion started at or after the namespace's, and before it was removed). */
async function namespaceContents(env: HistoryEnv, ns: LastDeletion, revision: number): Promise<LastDeletion[]> {
  const name = ns.object.metadata.name ?? '';
  const ctx = { namespace: name };
  const stores = ledgerStores(env).filter((s) => s.def.namespaced);
  const out: LastDeletion[] = [];
  const scan: Scan = { count: 0, max: Number.POSITIVE_INFINITY };
  for await (const d of deletions(stores, ctx, revision, '', scan)) {
    if (d.startedRevision >= ns.startedRevision && d.deletedRevision <= ns.deletedRevision) out.push(d);
  }
  return out;
}

export async function restore(
  env: HistoryEnv,
  ctx: RequestContext,
  spec: RestoreSpec,
): Promise<{ restored: RestoredRef[]; skipped: RestoredRef[] }> {
  const gr = { group: spec.group, resource: spec.resource };
  const store = ledgerStores(env).find((s) => s.def.group === spec.group && s.def.plural === spec.resource);
  if (!store) throw status.notFound(gr, spec.name);
  const namespace = store.def.namespaced ? spec.namespace : '';
  if (store.def.namespaced && !namespace) throw status.badRequest(`spec.namespace is required to restore ${status.qualifiedResource(gr)}`);
  const key = store.keys.objectKey(namespace, spec.name);
  const revision = await env.storage.currentRevision();
  const found = await lastDeletion(store, key, revision);
  if (!found) {
    if (await store.storage.get(key)) throw status.alreadyExists(gr, spec.name);
    throw status.notFound(gr, spec.name);
  }
  if (spec.uid && found.object.metadata.uid !== spec.uid) throw status.notFound(gr, spec.name);
  const isNamespace = store.def.group === '' && store.def.plural === 'namespaces';
  const plan = isNamespace ? [found, ...(await namespaceContents(env, found, revision))] : [found];
  // Every create is authorized before the first is written: a refusal writes nothing.
  const asked = new Set<string>();
  for (const d of plan) {
    const q = {
      verb: 'create',
      group: d.store.def.group,
      resource: d.store.def.plural,
      subresource: '',
      namespace: d.object.metadata.namespace ?? '',
      name: '',
    };
    const k = `${q.group}/${q.resource}/${q.namespace}`;
    if (asked.has(k)) continue;
    asked.add(k);
    if (!(await env.may(ctx.user, q))) {
      const where = q.namespace ? ` in the namespace "${q.namespace}"` : ' at the cluster scope';
      throw status.forbidden(
        d.store.groupResource,
        d === found ? spec.name : (d.object.metadata.name ?? ''),
        `User "${ctx.user.name}" cannot create resource "${q.resource}" in API group "${q.group}"${where}`,
      );
    }
  }
  // The object asked for: its refusals (409 taken again, admission's) are the request's.
  const restored = [refOf(store, await restoreOne(ctx, found))];
  const skipped: RestoredRef[] = [];
  await restoreContents(ctx, plan.slice(1), restored, skipped);
  return { restored, skipped };
}

/** The Restore kind's POST: 201 with the Restore and its status. */
export function newRestoreAction(env: HistoryEnv): StoreAction {
  return {
    async run(_stores, ctx, _name, body) {
      const spec = restoreSpec(body, { group: str(body.apiVersion)?.split('/')[0] ?? '', kind: 'Restore' });
      const result = await restore(env, ctx, spec);
      const { metadata, spec: _spec } = body;
      return {
        code: 201,
        object: { apiVersion: body.apiVersion, kind: body.kind, metadata: metadata ?? {}, spec, status: result },
      };
    },
  };
}
