/**
 * The rules of each volume source (Kubernetes' validate<Source>VolumeSource functions): required
 * fields, file modes, item paths, enumerations. volumes.ts picks the one source of a volume and calls
 * the matching rule from SOURCE_RULES.
 */
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { isPlainObject } from '../../../api/object.js';
import { forbidden, invalid, notSupported, required, tooLong } from '../../../api/field-errors.js';
import { isDNS1123Label, isDNS1123Subdomain, nameIsDNSSubdomain } from '../../../api/validation/names.js';
import { validateLocalDescendingPath, validateLocalNonReservedPath, validatePathNoBacksteps } from './paths.js';
import { inclusiveRangeError } from './value-checks.js';
import { validateDownwardAPIFile } from './downward-api.js';
import { validateFileMode } from './file-mode.js';
import { validateClaimTemplate } from './claim-template.js';
import { isNegativeQuantity } from './quantities.js';
import type {
  ConfigMapProjection,
  DownwardAPIVolumeFile,
  KeyToPath,
  SecretProjection,
  VolumeProjection,
} from '../../../api/generated/types.js';

type Source = Record<string, unknown>;
/** One source's rule: the source object, the path to report under, the volume's name. */
export type SourceRule = (source: Source, path: FieldPath, volumeName: string) => FieldError[];

function str(s: Source, f: string): string {
  const v = s[f];
  return typeof v === 'string' ? v : '';
}
function num(s: Source, f: string): number | undefined {
  const v = s[f];
  return typeof v === 'number' ? v : undefined;
}
const list = <T>(s: Source, f: string): T[] => (Array.isArray(s[f]) ? (s[f] as T[]) : []);
function obj(s: Source, f: string): Source | undefined {
  const v = s[f];
  return isPlainObject(v) ? v : undefined;
}

function requireField(s: Source, f: string, path: FieldPath, detail = ''): FieldError[] {
  return str(s, f) === '' ? [required(path.child(f), detail)] : [];
}

/** validateKeyToPath: key and path required, the path local and not reserved, the mode in range. */
function validateKeyToPath(kp: KeyToPath, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!kp.key) errs.push(required(path.child('key')));
  if (!kp.path) errs.push(required(path.child('path')));
  errs.push(...validateLocalNonReservedPath(kp.path ?? '', path.child('path')));
  errs.push(...validateFileMode(kp.mode, path.child('mode')));
  return errs;
}

function validateItems(items: KeyToPath[] | undefined, path: FieldPath): FieldError[] {
  return (items ?? []).flatMap((kp, i) => validateKeyToPath(kp, path.child('items').index(i)));
}

/** The rules of a secret (`secretName`) or configMap (`name`) source. */
function itemsSourceRule(nameField: string): SourceRule {
  return (s, path) => [
    ...requireField(s, nameField, path),
    ...validateFileMode(num(s, 'defaultMode'), path.child('defaultMode')),
    ...validateItems(s.items as KeyToPath[] | undefined, path),
  ];
}

const SUPPORTED_HOST_PATH_TYPES = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];

function hostPathRule(s: Source, path: FieldPath): FieldError[] {
  if (!str(s, 'path')) return [required(path.child('path'))];
  const errs = validatePathNoBacksteps(str(s, 'path'), path.child('path'));
  if (typeof s.type === 'string' && !SUPPORTED_HOST_PATH_TYPES.includes(s.type)) {
    errs.push(notSupported(path.child('type'), s.type, SUPPORTED_HOST_PATH_TYPES));
  }
  return errs;
}

const ISCSI_IQN = /iqn\.\d{4}-\d{2}\.([A-Za-z0-9\-.]+)(:[^,;*&$|\s]+)$/;
const ISCSI_EUI = /^eui.[A-Za-z0-9]{16}$/;
const ISCSI_NAA = /^naa.[A-Za-z0-9]{32}$/;

/** An iSCSI qualified name: iqn…, eui… or naa…, each in its format. */
function validateIscsiName(value: string, path: FieldPath): FieldError[] {
  if (!value.startsWith('iqn') && !value.startsWith('eui') && !value.startsWith('naa')) {
    return [invalid(path, value, 'must be valid format starting with iqn, eui, or naa')];
  }
  const bad =
    (value.startsWith('iqn') && !ISCSI_IQN.test(value)) ||
    (value.startsWith('eui') && !ISCSI_EUI.test(value)) ||
    (value.startsWith('naa') && !ISCSI_NAA.test(value));
  return bad ? [invalid(path, value, 'must be valid format')] : [];
}

function iscsiRule(s: Source, path: FieldPath): FieldError[] {
  const errs = requireField(s, 'targetPortal', path);
  if (!str(s, 'iqn')) errs.push(required(path.child('iqn')));
  else errs.push(...validateIscsiName(str(s, 'iqn'), path.child('iqn')));
  const lun = num(s, 'lun') ?? 0;
  if (lun < 0 || lun > 255) errs.push(invalid(path.child('lun'), lun, inclusiveRangeError(0, 255)));
  if ((s.chapAuthDiscovery === true || s.chapAuthSession === true) && !obj(s, 'secretRef')) errs.push(required(path.child('secretRef')));
  if (typeof s.initiatorName === 'string') errs.push(...validateIscsiName(s.initiatorName, path.child('initiatorname')));
  return errs;
}

function fcRule(s: Source, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const wwns = list<string>(s, 'targetWWNs');
  const wwids = list<string>(s, 'wwids');
  if (wwns.length < 1 && wwids.length < 1) {
    errs.push(required(path.child('targetWWNs'), 'must specify either targetWWNs or wwids, but not both'));
  }
  if (wwns.length !== 0 && wwids.length !== 0) {
    errs.push(invalid(path.child('targetWWNs'), wwns, 'targetWWNs and wwids can not be specified simultaneously'));
  }
  if (wwns.length !== 0) {
    const lun = num(s, 'lun');
    if (lun === undefined) errs.push(required(path.child('lun'), 'lun is required if targetWWNs is specified'));
    else if (lun < 0 || lun > 255) errs.push(invalid(path.child('lun'), lun, inclusiveRangeError(0, 255)));
  }
  return errs;
}

/** A disk with a partition number (GCE PD, AWS EBS). */
function partitionedDiskRule(idField: string): SourceRule {
  return (s, path) => {
    const errs = requireField(s, idField, path);
    const partition = num(s, 'partition') ?? 0;
    if (partition < 0 || partition > 255) errs.push(invalid(path.child('partition'), partition, inclusiveRangeError(1, 255)));
    return errs;
  };
}

/** A source whose only rule is that these fields are set. */
function requiredFieldsRule(...fields: string[]): SourceRule {
  return (s, path) => fields.flatMap((f) => requireField(s, f, path));
}

function nfsRule(s: Source, path: FieldPath): FieldError[] {
  const errs = requireField(s, 'server', path);
  if (!str(s, 'path')) errs.push(required(path.child('path')));
  if (!str(s, 'path').startsWith('/')) errs.push(invalid(path.child('path'), str(s, 'path'), 'must be an absolute path'));
  return errs;
}

function gitRepoRule(s: Source, path: FieldPath): FieldError[] {
  return [...requireField(s, 'repository', path), ...validateLocalDescendingPath(str(s, 'directory'), path.child('directory'))];
}

function glusterfsRule(s: Source, path: FieldPath): FieldError[] {
  return [...requireField(s, 'endpoints', path), ...requireField(s, 'path', path)];
}

function flockerRule(s: Source, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(s, 'datasetName');
  const uuid = str(s, 'datasetUUID');
  if (!name && !uuid) errs.push(required(path, 'one of datasetName and datasetUUID is required'));
  if (name && uuid) errs.push(invalid(path, 'resource', 'datasetName and datasetUUID can not be specified simultaneously'));
  if (name.includes('/')) errs.push(invalid(path.child('datasetName'), name, "must not contain '/'"));
  return errs;
}

function rbdRule(s: Source, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (list(s, 'monitors').length === 0) errs.push(required(path.child('monitors')));
  return [...errs, ...requireField(s, 'image', path)];
}

function cephfsRule(s: Source, path: FieldPath): FieldError[] {
  return list(s, 'monitors').length === 0 ? [required(path.child('monitors'))] : [];
}

function cinderRule(s: Source, path: FieldPath): FieldError[] {
  const errs = requireField(s, 'volumeID', path);
  const ref = obj(s, 'secretRef');
  if (ref && !str(ref, 'name')) errs.push(required(path.child('secretRef', 'name')));
  return errs;
}

function quobyteRule(s: Source, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const registry = str(s, 'registry');
  const hostPortDetail = 'must be a host:port pair or multiple pairs separated by commas';
  if (!registry) errs.push(required(path.child('registry'), hostPortDetail));
  else if (str(s, 'tenant').length >= 65)
    errs.push(required(path.child('tenant'), 'must be a UUID and may not exceed a length of 64 characters'));
  else {
    for (const pair of registry.split(',')) {
      if (!/^(\[[^\]]*\]|[^:[\]]*):[^:]*$/.test(pair)) errs.push(invalid(path.child('registry'), registry, hostPortDetail));
    }
  }
  return [...errs, ...requireField(s, 'volume', path)];
}

function flexVolumeRule(s: Source, path: FieldPath): FieldError[] {
  const errs = requireField(s, 'driver', path);
  for (const key of Object.keys(obj(s, 'options') ?? {})) {
    const namespace = key.includes('/') ? key.split('/')[0] : key;
    const normalized = `.${namespace.toLowerCase()}`;
    if (normalized.endsWith('.kubernetes.io') || normalized.endsWith('.k8s.io')) {
      errs.push(invalid(path.child('options').key(key), key, 'kubernetes.io and k8s.io namespaces are reserved'));
    }
  }
  return errs;
}

const AZURE_CACHING_MODES = ['None', 'ReadOnly', 'ReadWrite'];
const AZURE_DISK_KINDS = ['Dedicated', 'Managed', 'Shared'];

function azureDiskRule(s: Source, path: FieldPath): FieldError[] {
  const errs = [...requireField(s, 'diskName', path), ...requireField(s, 'diskURI', path)];
  const mode = s.cachingMode;
  if (typeof mode === 'string' && !AZURE_CACHING_MODES.includes(mode))
    errs.push(notSupported(path.child('cachingMode'), mode, AZURE_CACHING_MODES));
  const kind = s.kind;
  if (typeof kind === 'string') {
    if (!AZURE_DISK_KINDS.includes(kind)) errs.push(notSupported(path.child('kind'), kind, AZURE_DISK_KINDS));
    const uri = str(s, 'diskURI');
    if (kind === 'Managed' && !uri.startsWith('/subscriptions/')) {
      errs.push(
        notSupported(path.child('diskURI'), uri, [
          '/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}',
        ]),
      );
    }
    if (kind !== 'Managed' && !uri.startsWith('https://')) {
      errs.push(
        notSupported(path.child('diskURI'), uri, ['https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd']),
      );
    }
  }
  return errs;
}

function storageosRule(s: Source, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(s, 'volumeName');
  if (!name) errs.push(required(path.child('volumeName')));
  else errs.push(...isDNS1123Label(name).map((m) => invalid(path.child('volumeName'), name, m)));
  const ns = str(s, 'volumeNamespace');
  if (ns) errs.push(...isDNS1123Label(ns).map((m) => invalid(path.child('volumeNamespace'), ns, m)));
  const ref = obj(s, 'secretRef');
  if (ref && !str(ref, 'name')) errs.push(required(path.child('secretRef', 'name')));
  return errs;
}

/** ValidateCSIDriverName: required, at most 63 characters, a DNS subdomain (case-insensitively). */
export function validateCSIDriverName(driver: string, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!driver) errs.push(required(path));
  if (driver.length > 63) errs.push(tooLong(path, driver, 63));
  errs.push(...isDNS1123Subdomain(driver.toLowerCase()).map((m) => invalid(path, driver, m)));
  return errs;
}

function csiRule(s: Source, path: FieldPath): FieldError[] {
  const errs = validateCSIDriverName(str(s, 'driver'), path.child('driver'));
  const ref = obj(s, 'nodePublishSecretRef');
  if (ref) {
    const name = str(ref, 'name');
    if (!name) errs.push(required(path.child('nodePublishSecretRef', 'name')));
    else errs.push(...nameIsDNSSubdomain(name, false).map((m) => invalid(path.child('name'), name, m)));
  }
  return errs;
}

function downwardAPIRule(s: Source, path: FieldPath): FieldError[] {
  const errs = validateFileMode(num(s, 'defaultMode'), path.child('defaultMode'));
  for (const file of list<DownwardAPIVolumeFile>(s, 'items')) errs.push(...validateDownwardAPIFile(file, path));
  return errs;
}

/** Each source of a projected volume: one kind per source, no path used twice. */
function projectedRule(s: Source, path: FieldPath): FieldError[] {
  const errs = validateFileMode(num(s, 'defaultMode'), path.child('defaultMode'));
  const allPaths = new Set<string>();
  const claimPath = (p: string | undefined, value: unknown) => {
    if (!p) return;
    if (allPaths.has(p)) errs.push(invalid(path, value, 'conflicting duplicate paths'));
    else allPaths.add(p);
  };
  list<VolumeProjection>(s, 'sources').forEach((source, i) => {
    const srcPath = path.child('sources').index(i);
    let count = 0;
    for (const kind of ['secret', 'configMap'] as const) {
      const items: SecretProjection | ConfigMapProjection | undefined = source[kind];
      if (!items) continue;
      count++;
      if (!items.name) errs.push(required(srcPath.child(kind, 'name')));
      (items.items ?? []).forEach((kp, j) => {
        errs.push(...validateKeyToPath(kp, srcPath.child(kind, 'items').index(j)));
        claimPath(kp.path, items.name ?? '');
      });
    }
    if (source.downwardAPI) {
      count++;
      for (const file of source.downwardAPI.items ?? []) {
        errs.push(...validateDownwardAPIFile(file, srcPath.child('downwardAPI')));
        claimPath(file.path, file.path);
      }
    }
    if (source.serviceAccountToken) {
      count++;
      const token = source.serviceAccountToken;
      const seconds = token.expirationSeconds ?? 0;
      const tokenPath = srcPath.child('serviceAccountToken');
      if (seconds < 600)
        errs.push(invalid(tokenPath.child('expirationSeconds'), seconds, 'may not specify a duration less than 10 minutes'));
      if (seconds > 2 ** 32)
        errs.push(invalid(tokenPath.child('expirationSeconds'), seconds, 'may not specify a duration larger than 2^32 seconds'));
      if (!token.path) errs.push(required(path.child('path')));
      else errs.push(...validateLocalNonReservedPath(token.path, path.child('path')));
    }
    if (count > 1) errs.push(forbidden(srcPath, 'may not specify more than 1 volume type per source'));
  });
  return errs;
}

function emptyDirRule(s: Source, path: FieldPath): FieldError[] {
  const limit = s.sizeLimit;
  return typeof limit === 'string' && isNegativeQuantity(limit)
    ? [forbidden(path.child('sizeLimit'), 'SizeLimit field must be a valid resource quantity')]
    : [];
}

function ephemeralRule(s: Source, path: FieldPath): FieldError[] {
  const template = obj(s, 'volumeClaimTemplate');
  return template ? validateClaimTemplate(template, path.child('volumeClaimTemplate')) : [required(path.child('volumeClaimTemplate'))];
}

/**
 * Every volume source in Kubernetes' order: the JSON field, the path of the "more than 1 volume type"
 * error, the path the source's own rules report under (Kubernetes' quirks kept) and the rules.
 */
export const SOURCE_RULES: readonly { field: string; forbiddenAs: string; validateAs: string; rule: SourceRule }[] = [
  { field: 'emptyDir', forbiddenAs: 'emptyDir', validateAs: 'emptyDir', rule: emptyDirRule },
  { field: 'hostPath', forbiddenAs: 'hostPath', validateAs: 'hostPath', rule: hostPathRule },
  { field: 'gitRepo', forbiddenAs: 'gitRepo', validateAs: 'gitRepo', rule: gitRepoRule },
  { field: 'gcePersistentDisk', forbiddenAs: 'gcePersistentDisk', validateAs: 'persistentDisk', rule: partitionedDiskRule('pdName') },
  {
    field: 'awsElasticBlockStore',
    forbiddenAs: 'awsElasticBlockStore',
    validateAs: 'awsElasticBlockStore',
    rule: partitionedDiskRule('volumeID'),
  },
  { field: 'secret', forbiddenAs: 'secret', validateAs: 'secret', rule: itemsSourceRule('secretName') },
  { field: 'nfs', forbiddenAs: 'nfs', validateAs: 'nfs', rule: nfsRule },
  { field: 'iscsi', forbiddenAs: 'iscsi', validateAs: 'iscsi', rule: iscsiRule },
  { field: 'glusterfs', forbiddenAs: 'glusterfs', validateAs: 'glusterfs', rule: glusterfsRule },
  { field: 'flocker', forbiddenAs: 'flocker', validateAs: 'flocker', rule: flockerRule },
  {
    field: 'persistentVolumeClaim',
    forbiddenAs: 'persistentVolumeClaim',
    validateAs: 'persistentVolumeClaim',
    rule: requiredFieldsRule('claimName'),
  },
  { field: 'rbd', forbiddenAs: 'rbd', validateAs: 'rbd', rule: rbdRule },
  { field: 'cinder', forbiddenAs: 'cinder', validateAs: 'cinder', rule: cinderRule },
  { field: 'cephfs', forbiddenAs: 'cephFS', validateAs: 'cephfs', rule: cephfsRule },
  { field: 'quobyte', forbiddenAs: 'quobyte', validateAs: 'quobyte', rule: quobyteRule },
  { field: 'downwardAPI', forbiddenAs: 'downwarAPI', validateAs: 'downwardAPI', rule: downwardAPIRule },
  { field: 'fc', forbiddenAs: 'fc', validateAs: 'fc', rule: fcRule },
  { field: 'flexVolume', forbiddenAs: 'flexVolume', validateAs: 'flexVolume', rule: flexVolumeRule },
  { field: 'configMap', forbiddenAs: 'configMap', validateAs: 'configMap', rule: itemsSourceRule('name') },
  { field: 'azureFile', forbiddenAs: 'azureFile', validateAs: 'azureFile', rule: requiredFieldsRule('secretName', 'shareName') },
  { field: 'vsphereVolume', forbiddenAs: 'vsphereVolume', validateAs: 'vsphereVolume', rule: requiredFieldsRule('volumePath') },
  {
    field: 'photonPersistentDisk',
    forbiddenAs: 'photonPersistentDisk',
    validateAs: 'photonPersistentDisk',
    rule: requiredFieldsRule('pdID'),
  },
  { field: 'portworxVolume', forbiddenAs: 'portworxVolume', validateAs: 'portworxVolume', rule: requiredFieldsRule('volumeID') },
  { field: 'azureDisk', forbiddenAs: 'azureDisk', validateAs: 'azureDisk', rule: azureDiskRule },
  { field: 'storageos', forbiddenAs: 'storageos', validateAs: 'storageos', rule: storageosRule },
  { field: 'projected', forbiddenAs: 'projected', validateAs: 'projected', rule: projectedRule },
  { field: 'scaleIO', forbiddenAs: 'scaleIO', validateAs: 'scaleIO', rule: requiredFieldsRule('gateway', 'system', 'volumeName') },
  { field: 'csi', forbiddenAs: 'csi', validateAs: 'csi', rule: csiRule },
  { field: 'ephemeral', forbiddenAs: 'ephemeral', validateAs: 'ephemeral', rule: ephemeralRule },
];
