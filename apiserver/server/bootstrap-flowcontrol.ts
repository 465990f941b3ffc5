/**
 * API Priority and Fairness' bootstrap objects (registry/flowcontrol/bootstrap-configuration.ts),
 * kept at every start as kube-apiserver keeps them: a missing object is created, and one annotated
 * `apf.<prefix>/autoupdate-spec: "true"` gets its bootstrap spec back; any other is left as it is.
 */
import type { ApiDomain } from '../api/domain.js';
import { deepCopy, jsonEqual, type ApiObject } from '../api/object.js';
import * as status from '../api/status.js';
import { flowControlBootstrap } from '../registry/flowcontrol/bootstrap-configuration.js';
import type { GenericStore } from '../registry/generic/store.js';
import { SYSTEM_USER } from './bootstrap-namespaces.js';

async function ensureOne(store: GenericStore, expected: ApiObject, autoUpdate: string): Promise<void> {
  const ctx = { namespace: '', user: SYSTEM_USER, dryRun: false, now: new Date() };
  const name = expected.metadata.name!;
  try {
    await store.create(ctx, deepCopy(expected));
    return;
  } catch (err) {
    if (!status.isApiError(err, 'AlreadyExists')) throw err;
  }
  const spec = (o: ApiObject) => o.spec;
  await store.update(ctx, name, (current) => {
    if (!current) throw status.notFound(store.groupResource, name);
    if (current.metadata.annotations?.[autoUpdate] !== 'true' || jsonEqual(spec(current), spec(expected))) return current;
    return { ...current, spec: deepCopy(spec(expected)) };
  });
}

/** Priority levels first: every schema points at one. */
export async function ensureFlowControlBootstrap(
  priorityLevels: GenericStore,
  flowSchemas: GenericStore,
  domain: ApiDomain,
): Promise<void> {
  const b = flowControlBootstrap(domain);
  for (const o of b.priorityLevels) await ensureOne(priorityLevels, o, b.autoUpdateAnnotation);
  for (const o of b.flowSchemas) await ensureOne(flowSchemas, o, b.autoUpdateAnnotation);
}
