// The kinds the server serves, from discovery (custom resources included), grouped by API group.
import { get } from './api.js';

let cached;

/** [{ group, version, resource, kind, namespaced, verbs }] of every listable top-level resource. */
export function discover() {
  cached ??= load().catch((err) => {
    cached = undefined;
    throw err;
  });
  return cached;
}

async function load() {
  const [core, apis] = await Promise.all([get('/api/v1'), get('/apis')]);
  const lists = [{ group: '', version: 'v1', list: core }];
  const groups = await Promise.all(
    (apis.groups ?? []).map(async (g) => {
      const v = g.preferredVersion?.version ?? g.versions[0]?.version;
      try {
        return { group: g.name, version: v, list: await get(`/apis/${g.name}/${v}`) };
      } catch {
        return undefined; // an unavailable aggregated group: left out
      }
    }),
  );
  const out = [];
  for (const { group, version, list } of [...lists, ...groups.filter(Boolean)]) {
    for (const r of list.resources ?? []) {
      if (r.name.includes('/') || !r.verbs?.includes('list')) continue;
      out.push({ group, version, resource: r.name, kind: r.kind, namespaced: r.namespaced, verbs: r.verbs });
    }
  }
  return out;
}

/** The collection path of a resource, in a namespace or across all. */
export function collectionPath({ group, version, resource, namespaced }, namespace) {
  const base = group ? `/apis/${group}/${version}` : `/api/${version}`;
  return namespaced && namespace ? `${base}/namespaces/${encodeURIComponent(namespace)}/${resource}` : `${base}/${resource}`;
}

/** The console route of one object. */
export function objectHref(r, namespace, name) {
  return `#/objects/${[r.group || 'core', r.version, r.resource, namespace || '-', name].map(encodeURIComponent).join('/')}`;
}

/** The resource of a kind in an apiVersion (an owner reference's), or undefined. */
export async function resourceOfKind(apiVersion, kind) {
  const [g, v] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  return (await discover()).find((r) => r.group === g && r.version === v && r.kind === kind);
}
