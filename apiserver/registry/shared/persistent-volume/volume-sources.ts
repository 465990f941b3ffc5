/**
 * The volume sources of a PersistentVolume (core/v1 PersistentVolumeSource): exactly one must be set,
 * each with Kubernetes' own checks and defaults. Field paths and messages follow Kubernetes, quirks
 * included (`gcePersistentDisk` errors under `persistentDisk`, CephFS under `cephfs`).
 */
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { isPlainObject } from '../../../api/object.js';
import { forbidden, invalid, notSupported, required } from '../../../api/field-errors.js';
import type { ApiDomain } from '../../../api/domain.js';
import { isDNS1123Label, isDNS1123Subdomain, nameIsDNSLabel } from '../../../api/validation/names.js';
import { validatePathNoBacksteps } from '../pod-spec/paths.js';
import { inclusiveRangeError } from '../pod-spec/value-checks.js';
import { validateCSIDriverName } from '../pod-spec/volume-sources.js';

type Source = Record<string, unknown>;

/** What a source's check needs besides the source itself. */
interface SourceContext {
  pvName: string;
  domain: ApiDomain;
}

type SourceCheck = (src: Source, path: FieldPath, ctx: SourceContext) => FieldError[];

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const obj = (v: unknown): Source | undefined => (isPlainObject(v) ? v : undefined);

function requireString(src: Source, key: string, path: FieldPath): FieldError[] {
  return str(src[key]).length === 0 ? [required(path.child(key), '')] : [];
}

/** A disk partition: Kubernetes checks 0–255 but words the message as 1–255. */
function validatePartition(src: Source, path: FieldPath): FieldError[] {
  const p = src.partition;
  return typeof p === 'number' && (p < 0 || p > 255) ? [invalid(path.child('partition'), p, inclusiveRangeError(1, 255))] : [];
}

function validateLun(lun: unknown, path: FieldPath): FieldError[] {
  return typeof lun === 'number' && (lun < 0 || lun > 255) ? [invalid(path, lun, inclusiveRangeError(0, 255))] : [];
}

/** A secret reference with both parts required (cinder, storageos). */
function validateNamespacedSecretRef(src: Source, path: FieldPath): FieldError[] {
  const ref = obj(src.secretRef);
  if (!ref) return [];
  return [...requireString(ref, 'name', path.child('secretRef')), ...requireString(ref, 'namespace', path.child('secretRef'))];
}

/** validatePVSecretReference: name a DNS subdomain, namespace a DNS label. */
function validatePVSecretReference(ref: Source, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const name = str(ref.name);
  const namespace = str(ref.namespace);
  if (!name) errors.push(required(path.child('name'), ''));
  else errors.push(...isDNS1123Subdomain(name).map((m) => invalid(path.child('name'), name, m)));
  if (!namespace) errors.push(required(path.child('namespace'), ''));
  else errors.push(...isDNS1123Label(namespace).map((m) => invalid(path.child('namespace'), namespace, m)));
  return errors;
}

const HOST_PATH_TYPES = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];

const hostPath: SourceCheck = (src, path) => {
  const p = str(src.path);
  if (!p) return [required(path.child('path'), '')];
  const errors = validatePathNoBacksteps(p, path.child('path'));
  if (typeof src.type === 'string' && !HOST_PATH_TYPES.includes(src.type))
    errors.push(notSupported(path.child('type'), src.type, HOST_PATH_TYPES));
  return errors;
};

const gcePersistentDisk: SourceCheck = (src, path) => [...requireString(src, 'pdName', path), ...validatePartition(src, path)];

const awsElasticBlockStore: SourceCheck = (src, path) => [...requireString(src, 'volumeID', path), ...validatePartition(src, path)];

const glusterfs: SourceCheck = (src, path) => {
  const errors = [...requireString(src, 'endpoints', path), ...requireString(src, 'path', path)];
  if (typeof src.endpointsNamespace === 'string') {
    const ns = src.endpointsNamespace;
    if (ns === '')
      errors.push(invalid(path.child('endpointsNamespace'), ns, 'if the endpointnamespace is set, it must be a valid namespace name'));
    else errors.push(...nameIsDNSLabel(ns, false).map((m) => invalid(path.child('endpointsNamespace'), ns, m)));
  }
  return errors;
};

const flocker: SourceCheck = (src, path) => {
  const errors: FieldError[] = [];
  const name = str(src.datasetName);
  const uuid = str(src.datasetUUID);
  if (!name && !uuid) errors.push(required(path, 'one of datasetName and datasetUUID is required'));
  if (name && uuid) errors.push(invalid(path, 'resource', 'datasetName and datasetUUID can not be specified simultaneously'));
  if (name.includes('/')) errors.push(invalid(path.child('datasetName'), name, "must not contain '/'"));
  return errors;
};

const nfs: SourceCheck = (src, path) => {
  const errors = [...requireString(src, 'server', path), ...requireString(src, 'path', path)];
  const p = str(src.path);
  if (!p.startsWith('/')) errors.push(invalid(path.child('path'), p, 'must be an absolute path'));
  return errors;
};

const rbd: SourceCheck = (src, path) => {
  const errors: FieldError[] = [];
  if (list(src.monitors).length === 0) errors.push(required(path.child('monitors'), ''));
  errors.push(...requireString(src, 'image', path));
  return errors;
};

/** net.SplitHostPort's acceptance: `host:port` or `[host]:port`. */
function isHostPort(s: string): boolean {
  const last = s.lastIndexOf(':');
  if (last < 0) return false;
  if (s.startsWith('[')) {
    const end = s.indexOf(']');
    return end >= 0 && end + 1 === last && !s.slice(1).includes('[') && !s.slice(end + 1).includes(']');
  }
  return !s.slice(0, last).includes(':') && !s.includes('[') && !s.includes(']');
}

const quobyte: SourceCheck = (src, path) => {
  const errors: FieldError[] = [];
  const registry = str(src.registry);
  const hostPortMessage = 'must be a host:port pair or multiple pairs separated by commas';
  if (!registry) errors.push(required(path.child('registry'), hostPortMessage));
  else if (str(src.tenant).length >= 65)
    errors.push(required(path.child('tenant'), 'must be a UUID and may not exceed a length of 64 characters'));
  else {
    for (const pair of registry.split(',')) if (!isHostPort(pair)) errors.push(invalid(path.child('registry'), registry, hostPortMessage));
  }
  errors.push(...requireString(src, 'volume', path));
  return errors;
};

const cephfs: SourceCheck = (src, path) => (list(src.monitors).length === 0 ? [required(path.child('monitors'), '')] : []);

const IQN = /iqn\.\d{4}-\d{2}\.([A-Za-z0-9\-.]+)(:[^,;*&$|\s]+)$/;
const EUI = /^eui.[A-Za-z0-9]{16}$/;
const NAA = /^naa.[A-Za-z0-9]{32}$/;

/** An iSCSI qualified name: starts with iqn, eui or naa and matches that form. */
function iscsiNameErrors(value: string, path: FieldPath): FieldError[] {
  const bad = () => [invalid(path, value, 'must be valid format')];
  if (value.startsWith('iqn')) return IQN.test(value) ? [] : bad();
  if (value.startsWith('eui')) return EUI.test(value) ? [] : bad();
  if (value.startsWith('naa')) return NAA.test(value) ? [] : bad();
  return bad();
}

const iscsi: SourceCheck = (src, path, ctx) => {
  const errors: FieldError[] = [];
  const portal = str(src.targetPortal);
  if (!portal) errors.push(required(path.child('targetPortal'), ''));
  if (typeof src.initiatorName === 'string' && `${ctx.pvName}:${portal}`.length > 64) {
    errors.push(
      invalid(
        path.child('targetportal'),
        portal,
        'Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.',
      ),
    );
  }
  const iqn = str(src.iqn);
  if (!iqn) errors.push(required(path.child('iqn'), ''));
  else errors.push(...iscsiNameErrors(iqn, path.child('iqn')));
  errors.push(...validateLun(src.lun, path.child('lun')));
  if ((src.chapAuthDiscovery === true || src.chapAuthSession === true) && !obj(src.secretRef))
    errors.push(required(path.child('secretRef'), ''));
  const secretRef = obj(src.secretRef);
  if (secretRef) errors.push(...requireString(secretRef, 'name', path.child('secretRef')));
  if (typeof src.initiatorName === 'string') errors.push(...iscsiNameErrors(src.initiatorName, path.child('initiatorname')));
  return errors;
};

const cinder: SourceCheck = (src, path) => [...requireString(src, 'volumeID', path), ...validateNamespacedSecretRef(src, path)];

const fc: SourceCheck = (src, path) => {
  const errors: FieldError[] = [];
  const wwns = list(src.targetWWNs);
  const wwids = list(src.wwids);
  if (wwns.length === 0 && wwids.length === 0)
    errors.push(required(path.child('targetWWNs'), 'must specify either targetWWNs or wwids, but not both'));
  if (wwns.length > 0 && wwids.length > 0)
    errors.push(invalid(path.child('targetWWNs'), wwns, 'targetWWNs and wwids can not be specified simultaneously'));
  if (wwns.length > 0) {
    if (src.lun === undefined) errors.push(required(path.child('lun'), 'lun is required if targetWWNs is specified'));
    else errors.push(...validateLun(src.lun, path.child('lun')));
  }
  return errors;
};

const flexVolume: SourceCheck = (src, path, ctx) => {
  const errors = requireString(src, 'driver', path);
  const reserved = [...new Set([ctx.domain.labelPrefix, ctx.domain.domain])];
  for (const key of Object.keys(obj(src.options) ?? {})) {
    const namespace = `.${key.split('/')[0].toLowerCase()}`;
    if (reserved.some((r) => namespace.endsWith(`.${r}`))) {
      errors.push(invalid(path.child('options').key(key), key, `${reserved.join(' and ')} namespaces are reserved`));
    }
  }
  return errors;
};

const azureFile: SourceCheck = (src, path) => {
  const errors = [...requireString(src, 'secretName', path), ...requireString(src, 'shareName', path)];
  if (src.secretNamespace === '') errors.push(required(path.child('secretNamespace'), ''));
  return errors;
};

const vsphereVolume: SourceCheck = (src, path) => requireString(src, 'volumePath', path);
const photonPersistentDisk: SourceCheck = (src, path) => requireString(src, 'pdID', path);
const portworxVolume: SourceCheck = (src, path) => requireString(src, 'volumeID', path);

const AZURE_CACHING_MODES = ['None', 'ReadOnly', 'ReadWrite'];
const AZURE_DISK_KINDS = ['Dedicated', 'Managed', 'Shared'];

const azureDisk: SourceCheck = (src, path) => {
  const errors = [...requireString(src, 'diskName', path)];
  const uri = str(src.diskURI);
  if (!uri) errors.push(required(path.child('diskURI'), ''));
  if (typeof src.cachingMode === 'string' && !AZURE_CACHING_MODES.includes(src.cachingMode)) {
    errors.push(notSupported(path.child('cachingMode'), src.cachingMode, AZURE_CACHING_MODES));
  }
  if (typeof src.kind === 'string') {
    if (!AZURE_DISK_KINDS.includes(src.kind)) errors.push(notSupported(path.child('kind'), src.kind, AZURE_DISK_KINDS));
    if (src.kind === 'Managed' && !uri.startsWith('/subscriptions/')) {
      errors.push(
        notSupported(path.child('diskURI'), uri, [
          '/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}',
        ]),
      );
    }
    if (src.kind !== 'Managed' && !uri.startsWith('https://')) {
      errors.push(
        notSupported(path.child('diskURI'), uri, ['https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd']),
      );
    }
  }
  return errors;
};

const scaleIO: SourceCheck = (src, path) => ['gateway', 'system', 'volumeName'].flatMap((k) => requireString(src, k, path));

const local: SourceCheck = (src, path) => {
  const p = str(src.path);
  return p ? validatePathNoBacksteps(p, path.child('path')) : [required(path.child('path'), '')];
};

const storageos: SourceCheck = (src, path) => {
  const errors: FieldError[] = [];
  const name = str(src.volumeName);
  if (!name) errors.push(required(path.child('volumeName'), ''));
  else errors.push(...isDNS1123Label(name).map((m) => invalid(path.child('volumeName'), name, m)));
  const ns = str(src.volumeNamespace);
  if (ns) errors.push(...isDNS1123Label(ns).map((m) => invalid(path.child('volumeNamespace'), ns, m)));
  errors.push(...validateNamespacedSecretRef(src, path));
  return errors;
};

const CSI_SECRET_REFS = ['controllerPublishSecretRef', 'controllerExpandSecretRef', 'nodePublishSecretRef', 'nodeExpandSecretRef'];

const csi: SourceCheck = (src, path) => {
  const errors = [...validateCSIDriverName(str(src.driver), path.child('driver')), ...requireString(src, 'volumeHandle', path)];
  for (const key of CSI_SECRET_REFS) {
    const ref = obj(src[key]);
    if (ref) errors.push(...validatePVSecretReference(ref, path.child(key)));
  }
  return errors;
};

/**
 * The sources in Kubernetes' checking order: the spec field, the path its errors use, its check.
 * flexVolume is counted without the "more than 1" check, as in Kubernetes.
 */
const SOURCES: { field: string; errorPath: string; check: SourceCheck }[] = [
  { field: 'hostPath', errorPath: 'hostPath', check: hostPath },
  { field: 'gcePersistentDisk', errorPath: 'persistentDisk', check: gcePersistentDisk },
  { field: 'awsElasticBlockStore', errorPath: 'awsElasticBlockStore', check: awsElasticBlockStore },
  { field: 'glusterfs', errorPath: 'glusterfs', check: glusterfs },
  { field: 'flocker', errorPath: 'flocker', check: flocker },
  { field: 'nfs', errorPath: 'nfs', check: nfs },
  { field: 'rbd', errorPath: 'rbd', check: rbd },
  { field: 'quobyte', errorPath: 'quobyte', check: quobyte },
  { field: 'cephfs', errorPath: 'cephfs', check: cephfs },
  { field: 'iscsi', errorPath: 'iscsi', check: iscsi },
  { field: 'cinder', errorPath: 'cinder', check: cinder },
  { field: 'fc', errorPath: 'fc', check: fc },
  { field: 'flexVolume', errorPath: 'flexVolume', check: flexVolume },
  { field: 'azureFile', errorPath: 'azureFile', check: azureFile },
  { field: 'vsphereVolume', errorPath: 'vsphereVolume', check: vsphereVolume },
  { field: 'photonPersistentDisk', errorPath: 'photonPersistentDisk', check: photonPersistentDisk },
  { field: 'portworxVolume', errorPath: 'portworxVolume', check: portworxVolume },
  { field: 'azureDisk', errorPath: 'azureDisk', check: azureDisk },
  { field: 'scaleIO', errorPath: 'scaleIO', check: scaleIO },
  { field: 'local', errorPath: 'local', check: local },
  { field: 'storageos', errorPath: 'storageos', check: storageos },
  { field: 'csi', errorPath: 'csi', check: csi },
];

/** The spec fields that make up the (immutable) PersistentVolumeSource. */
export const VOLUME_SOURCE_FIELDS: readonly string[] = SOURCES.map((s) => s.field);

/** The name Kubernetes uses for a source in "may not specify more than 1 volume type" (`cephFS`). */
function duplicatePathName(field: string): string {
  return field === 'cephfs' ? 'cephFS' : field;
}

/** Exactly one source, each valid; `local` needs the node affinity the caller says is set. */
export function validateVolumeSources(spec: Source, path: FieldPath, ctx: SourceContext & { nodeAffinitySet: boolean }): FieldError[] {
  const errors: FieldError[] = [];
  let count = 0;
  for (const { field, errorPath, check } of SOURCES) {
    const src = obj(spec[field]);
    if (!src) continue;
    if (count > 0 && field !== 'flexVolume') {
      errors.push(forbidden(path.child(duplicatePathName(field)), 'may not specify more than 1 volume type'));
      continue;
    }
    count++;
    errors.push(...check(src, path.child(errorPath), ctx));
    if (field === 'local' && !ctx.nodeAffinitySet) errors.push(required(path.child('nodeAffinity'), 'Local volume requires node affinity'));
  }
  if (count === 0) errors.push(required(path, 'must specify a volume type'));
  return errors;
}

/** Kubernetes' source defaults (SetDefaults_*VolumeSource) on whichever sources are set. */
export function applyVolumeSourceDefaults(spec: Source): void {
  // Optional (pointer) fields default when absent; plain string fields also when empty.
  const fill = (field: string, defaults: Record<string, unknown>, whenEmpty: boolean) => {
    const src = obj(spec[field]);
    if (!src) return;
    for (const [k, v] of Object.entries(defaults)) if (src[k] === undefined || (whenEmpty && src[k] === '')) src[k] = v;
  };
  fill('hostPath', { type: '' }, false);
  fill('iscsi', { iscsiInterface: 'default' }, true);
  fill('rbd', { pool: 'rbd', user: 'admin', keyring: '/etc/ceph/keyring' }, true);
  fill('azureDisk', { cachingMode: 'ReadWrite', kind: 'Shared', fsType: 'ext4', readOnly: false }, false);
  fill('scaleIO', { storageMode: 'ThinProvisioned', fsType: 'xfs' }, true);
}
