/**
 * Storage conversion: a kind whose declaration names a `conversion` (api/resource.ts StorageConversion)
 * lives under the storage resource's keys, in the storage resource's form. These are the three points
 * the generic store applies it at: which keys (storageResource), what is written (storedObject) and
 * what is read back (servedObject). Kinds without a conversion pass through unchanged.
 */
import type { ApiObject } from '../../api/object.js';
import { apiVersionOf, deepCopy } from '../../api/object.js';
import type { ResourceDef } from '../../api/resource.js';
import type { ApiDomain } from '../../api/domain.js';

/** The served group and plural whose keys hold the kind's objects. */
export interface StorageResource {
  group: string;
  resource: string;
}

/** The kind's own group/resource, or the storage resource its conversion names. */
export function storageResource(def: ResourceDef, domain: ApiDomain): StorageResource {
  const storage = def.conversion?.storage;
  return storage
    ? { group: domain.group(storage.kubernetesGroup), resource: storage.resource }
    : { group: def.group, resource: def.plural };
}

/** The object as written to storage: converted and labelled with the storage kind and version. */
export function storedObject(def: ResourceDef, domain: ApiDomain, obj: ApiObject): ApiObject {
  const conversion = def.conversion;
  if (!conversion) return obj;
  const { apiVersion: _a, kind: _k, ...fields } = conversion.toStorage(obj);
  const { kubernetesGroup, version, kind } = conversion.storage;
  return { apiVersion: apiVersionOf(domain.group(kubernetesGroup), version), kind, ...fields };
}

/**
 * A stored object as the kind serves it: converted (and defaulted), with the kind's own kind and apiVersion
 * first. A kind with a batch conversion keeps it as stored: servedObjects converts it on the way out.
 */
export function servedObject(def: ResourceDef, stored: ApiObject): ApiObject {
  if (def.batchConversion) return stored;
  const { apiVersion: _a, kind: _k, ...fields } = def.conversion ? def.conversion.fromStorage(stored) : stored;
  const obj: ApiObject = { kind: def.kind, apiVersion: def.apiVersion, ...fields };
  def.defaultOnRead?.(obj);
  return obj;
}

/** The apiVersion the kind's objects are stored in. */
function storageApiVersion(def: ResourceDef, domain: ApiDomain): string {
  const storage = def.conversion?.storage;
  return storage ? apiVersionOf(domain.group(storage.kubernetesGroup), storage.version) : def.apiVersion;
}

/**
 * Objects decoded as stored, as the kind serves them: with a batch conversion, converted in one call
 * (only those in another version are sent), then defaulted; other kinds were served by decoding already.
 * Never changes its arguments (the watch cache's objects are frozen).
 */
export async function servedObjects(def: ResourceDef, objs: ApiObject[]): Promise<ApiObject[]> {
  const convert = def.batchConversion;
  if (!convert || objs.length === 0) return objs;
  const converted = await convert(objs, def.apiVersion);
  return converted.map((c, i) => {
    const { apiVersion: _a, kind: _k, ...fields } = c === objs[i] ? deepCopy(c) : c;
    const obj: ApiObject = { kind: def.kind, apiVersion: def.apiVersion, ...fields };
    def.defaultOnRead?.(obj);
    return obj;
  });
}

/** A served object in the storage version, for a kind with a batch conversion (others convert in storedObject). */
export async function storageVersionObject(def: ResourceDef, domain: ApiDomain, obj: ApiObject): Promise<ApiObject> {
  if (!def.batchConversion) return obj;
  const [stored] = await def.batchConversion([obj], storageApiVersion(def, domain));
  return stored;
}

/**
 * Whether stored bytes are in another version than the one the kind now stores in: a custom resource
 * whose storage version changed. Then even an update that changes nothing writes the object again
 * (in the new version), which is how a storage version migration moves objects, as in Kubernetes.
 */
export function storedInOtherVersion(def: ResourceDef, domain: ApiDomain, stored: Buffer): boolean {
  if (!def.unstructured) return false;
  return (JSON.parse(stored.toString('utf8')) as { apiVersion?: string }).apiVersion !== storageApiVersion(def, domain);
}
