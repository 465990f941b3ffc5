import type { KeyValue } from '../../storage/interfaces.js';
import type { ApiObject } from '../../api/object.js';

/**
 * Objects are stored as JSON without resourceVersion; the resourceVersion is the key's modRevision,
 * filled in on every read (as Kubernetes' etcd3 store does).
 */
export function encodeObject(obj: ApiObject): Buffer {
  const { resourceVersion: _rv, ...meta } = obj.metadata;
  return Buffer.from(JSON.stringify({ ...obj, metadata: meta }));
}

export function decodeObject(kv: KeyValue, revision: number = kv.modRevision): ApiObject {
  const obj = JSON.parse(kv.value.toString('utf8')) as ApiObject;
  obj.metadata.resourceVersion = String(revision);
  return obj;
}
