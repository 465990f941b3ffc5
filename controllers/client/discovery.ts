/**
 * Discovery: which resources the server serves, read from /api, /api/v1, /apis and /apis/<g>/<v>, and
 * the mapping from an object's apiVersion + kind to its resource (client-go's RESTMapper). Group
 * versions that fail to answer are reported next to the resources that were found, as client-go's
 * ErrGroupDiscoveryFailed is.
 */
import type { ApiClient, GroupVersionResource } from './api-client.js';
import { toError } from '../../apiserver/api/thrown.js';

/** One served resource (subresources left out). */
export interface ApiResourceInfo extends GroupVersionResource {
  kind: string;
  namespaced: boolean;
  verbs: readonly string[];
  /** In its group's preferred version. */
  preferred: boolean;
}

export interface DiscoveryResult {
  resources: ApiResourceInfo[];
  /** groupVersion → why it could not be read. */
  failed: Map<string, Error>;
}

interface GroupDoc {
  name: string;
  versions: { groupVersion: string; version: string }[];
  preferredVersion?: { version: string };
}

interface ResourceListDoc {
  resources: { name: string; kind: string; namespaced: boolean; verbs: string[] }[];
}

/** The message of a partial discovery, as client-go's ErrGroupDiscoveryFailed prints it. */
export function discoveryFailureMessage(failed: Map<string, Error>): string {
  const parts = [...failed.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([gv, err]) => `${gv}: ${err.message}`);
  return `unable to retrieve the complete list of server APIs: ${parts.join(', ')}`;
}

/** Every resource of every served group version. */
export async function discoverResources(client: ApiClient): Promise<DiscoveryResult> {
  const core = await client.request<{ versions: string[] }>('GET', '/api');
  const groups = await client.request<{ groups: GroupDoc[] }>('GET', '/apis');
  const all: { group: string; version: string; preferred: boolean }[] = core.versions.map((v, i) => ({
    group: '',
    version: v,
    preferred: i === 0,
  }));
  for (const g of groups.groups) {
    const preferred = g.preferredVersion?.version ?? g.versions[0]?.version;
    for (const v of g.versions) all.push({ group: g.name, version: v.version, preferred: v.version === preferred });
  }
  const failed = new Map<string, Error>();
  const lists = await Promise.all(
    all.map(async (gv) => {
      const groupVersion = gv.group ? `${gv.group}/${gv.version}` : gv.version;
      try {
        return { gv, doc: await client.request<ResourceListDoc>('GET', gv.group ? `/apis/${groupVersion}` : `/api/${gv.version}`) };
      } catch (err) {
        failed.set(groupVersion, toError(err));
        return undefined;
      }
    }),
  );
  const resources: ApiResourceInfo[] = [];
  for (const entry of lists) {
    if (!entry) continue;
    for (const r of entry.doc.resources) {
      if (r.name.includes('/')) continue;
      resources.push({ ...entry.gv, resource: r.name, kind: r.kind, namespaced: r.namespaced, verbs: r.verbs });
    }
  }
  return { resources, failed };
}

/** The preferred-version resources that support every one of `verbs` (client-go's FilteredBy(SupportsAllVerbs)). */
export function preferredResourcesWith(result: DiscoveryResult, verbs: readonly string[]): ApiResourceInfo[] {
  return result.resources.filter((r) => r.preferred && verbs.every((v) => r.verbs.includes(v)));
}

/** A GroupVersionResource as one string, "configmaps.v1." / "deployments.v1.apps" (for map keys and logs). */
export function gvrKey(gvr: GroupVersionResource): string {
  return `${gvr.resource}.${gvr.version}.${gvr.group}`;
}

/** apiVersion + kind → resource, over every discovered version. */
export class RestMapper {
  private readonly byKind = new Map<string, ApiResourceInfo>();

  constructor(resources: readonly ApiResourceInfo[]) {
    for (const r of resources) {
      const apiVersion = r.group ? `${r.group}/${r.version}` : r.version;
      const key = `${apiVersion}|${r.kind}`;
      if (!this.byKind.has(key)) this.byKind.set(key, r);
    }
  }

  /** The resource of objects with this apiVersion and kind, if served. */
  resourceFor(apiVersion: string, kind: string): ApiResourceInfo | undefined {
    return this.byKind.get(`${apiVersion}|${kind}`);
  }
}
