/**
 * /openapi/v2 with the aggregated APIs: the served document merged with the extension servers' ones
 * (kube-aggregator's OpenAPI v2 aggregation), so that `kubectl explain` of an extension server's kind
 * finds its schema. The served document wins every conflict: a path or definition it already has is
 * kept as it is; an extension server's new paths and definitions are added. A document that is no
 * swagger 2.0 orch can encode (as protobuf, what kubectl downloads) is left out whole, never a broken
 * /openapi/v2. Both encodings are built on first use after a change and kept.
 */
import type { Json } from './openapi-common.js';
import type { OpenApiV2, OpenApiV2Encoding } from './openapi-v2.js';
import { encodeGnosticDocument } from './openapi-v2-gnostic.js';
import { documentETag } from './document-etag.js';

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The served document with what each extension document adds; `rejected` gets the ones left out and why. */
export function mergeOpenApiV2(local: Json, remotes: readonly unknown[], rejected?: (index: number, reason: string) => void): Json {
  const paths: Json = { ...(isRecord(local.paths) ? local.paths : {}) };
  const definitions: Json = { ...(isRecord(local.definitions) ? local.definitions : {}) };
  remotes.forEach((remote, index) => {
    if (!isRecord(remote) || remote.swagger !== '2.0') return rejected?.(index, 'not a swagger 2.0 document');
    const addedPaths = Object.fromEntries(Object.entries(isRecord(remote.paths) ? remote.paths : {}).filter(([p]) => !(p in paths)));
    const addedDefinitions = Object.fromEntries(
      Object.entries(isRecord(remote.definitions) ? remote.definitions : {}).filter(([n]) => !(n in definitions)),
    );
    try {
      encodeGnosticDocument({ swagger: '2.0', info: { title: '', version: '' }, paths: addedPaths, definitions: addedDefinitions });
    } catch (err) {
      return rejected?.(index, String(err instanceof Error ? err.message : err));
    }
    Object.assign(paths, addedPaths);
    Object.assign(definitions, addedDefinitions);
  });
  const sorted = (o: Json) =>
    Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, o[k]]),
    );
  return { ...local, paths: sorted(paths), definitions: sorted(definitions) };
}

/**
 * `local` merged with `remotes()`, built again when the served document changes (a new JSON text) or
 * `generation()` moves (an extension document changed).
 */
export function newMergedOpenApiV2(
  local: OpenApiV2,
  remotes: () => readonly unknown[],
  generation: () => number,
  rejected?: (index: number, reason: string) => void,
): OpenApiV2 {
  let key: { json: string; generation: number } | undefined;
  let doc: Json | undefined;
  let json: string | undefined;
  let pb: Buffer | undefined;
  const etags = new Map<OpenApiV2Encoding, string>();
  const current = (): Json => {
    const localJson = local.json();
    const gen = generation();
    if (!key || key.json !== localJson || key.generation !== gen) {
      key = { json: localJson, generation: gen };
      const extra = remotes();
      doc = extra.length ? mergeOpenApiV2(JSON.parse(localJson) as Json, extra, rejected) : undefined;
      json = undefined;
      pb = undefined;
      etags.clear();
    }
    return doc as Json;
  };
  const api: OpenApiV2 = {
    json() {
      if (!current()) return local.json();
      return (json ??= JSON.stringify(doc));
    },
    protobuf() {
      if (!current()) return local.protobuf();
      return (pb ??= encodeGnosticDocument(doc as Json));
    },
    etag(encoding) {
      if (!current()) return local.etag(encoding);
      let tag = etags.get(encoding);
      if (!tag) {
        etags.set(encoding, (tag = documentETag(encoding === 'json' ? api.json() : api.protobuf())));
      }
      return tag;
    },
  };
  return api;
}
