/**
 * Kubernetes 1.28's defaults of a PodSpec wherever it is (SetDefaults_PodSpec and the generated
 * defaulters of volumes, containers, probes) and the Pod-only ones (SetDefaults_Pod). Quantities are
 * read here too, as Kubernetes' decoder does: canonical text, resource lists rounded to milli, and a
 * 400 for a malformed quantity.
 */
import type { ApiObject } from '../../../api/object.js';
import { decodeQuantity, decodeResourceList } from './quantities.js';
import type {
  Container,
  DownwardAPIVolumeFile,
  EnvVar,
  LifecycleHandler,
  PersistentVolumeClaimSpec,
  PodSpec,
  Probe,
  Volume,
} from '../../../api/generated/types.js';

/** What defaulting reads of the object: its kind and version, which name it in a quantity's decode error. */
type Decoding = Pick<ApiObject, 'apiVersion' | 'kind'>;

/** Kubernetes' default mode of projected files (0644). */
const DEFAULT_FILE_MODE = 0o644;
const DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS = 30;
const DEFAULT_SCHEDULER_NAME = 'default-scheduler';
const DEFAULT_TOKEN_EXPIRATION_SECONDS = 3600;

/** Sets `field` when it is absent. */
function setDefault<T, K extends keyof T>(target: T, field: K, value: T[K]): void {
  if (target[field] === undefined) target[field] = value;
}

/** A JSON object (not null, not an array), keeping what `v` is typed as. */
function isObject<T>(v: T): v is NonNullable<T> & Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * The tag of an image reference as Kubernetes' ParseImageName sees it: "latest" when there is neither
 * tag nor digest, "" when the reference does not parse (empty, or upper case in the repository path).
 */
export function imageTag(image: string): string {
  const at = image.indexOf('@');
  const name = at >= 0 ? image.slice(0, at) : image;
  const slash = name.lastIndexOf('/');
  const last = name.slice(slash + 1);
  const colon = last.indexOf(':');
  const segments = `${name.slice(0, slash + 1)}${colon >= 0 ? last.slice(0, colon) : last}`.split('/');
  // A first segment with '.' or ':', or "localhost", is a registry host, which may use upper case.
  const path = segments.length > 1 && /[.:]|^localhost$/.test(segments[0]) ? segments.slice(1) : segments;
  if (path.join('/') === '' || /[A-Z]/.test(path.join('/'))) return '';
  const tag = colon >= 0 ? last.slice(colon + 1) : '';
  return tag || at >= 0 ? tag : 'latest';
}

function setFieldRefDefaults(ref: { apiVersion?: string } | undefined): void {
  if (ref && !ref.apiVersion) ref.apiVersion = 'v1';
}

function setDownwardAPIFileDefaults(obj: Decoding, files: DownwardAPIVolumeFile[] | undefined): void {
  for (const file of files ?? []) {
    setFieldRefDefaults(file.fieldRef);
    if (file.resourceFieldRef?.divisor !== undefined)
      file.resourceFieldRef.divisor = decodeQuantity(obj, file.resourceFieldRef.divisor, false);
  }
}

/** SetDefaults_PersistentVolumeClaimSpec with its resource lists (claim templates). */
export function setClaimSpecDefaults(obj: Decoding, spec: PersistentVolumeClaimSpec): void {
  if (spec.volumeMode === undefined) spec.volumeMode = 'Filesystem';
  decodeResourceList(obj, spec.resources?.limits);
  decodeResourceList(obj, spec.resources?.requests);
}

/** The fields of a Volume that hold a volume source. */
type SourceField = Exclude<keyof Volume, 'name'>;

/** Per-source defaults of the generated defaulters, each over its source's type. */
type SourceDefaults = { [F in SourceField]?: (obj: Decoding, source: NonNullable<Volume[F]>) => void };

const SOURCE_DEFAULTS: SourceDefaults = {
  emptyDir: (obj, s) => {
    if (s.sizeLimit !== undefined) s.sizeLimit = decodeQuantity(obj, s.sizeLimit, false);
  },
  hostPath: (_, s) => setDefault(s, 'type', ''),
  secret: (_, s) => setDefault(s, 'defaultMode', DEFAULT_FILE_MODE),
  configMap: (_, s) => setDefault(s, 'defaultMode', DEFAULT_FILE_MODE),
  downwardAPI: (obj, s) => {
    setDefault(s, 'defaultMode', DEFAULT_FILE_MODE);
    setDownwardAPIFileDefaults(obj, s.items);
  },
  projected: (obj, s) => {
    setDefault(s, 'defaultMode', DEFAULT_FILE_MODE);
    for (const source of s.sources ?? []) {
      if (isObject(source.downwardAPI)) setDownwardAPIFileDefaults(obj, source.downwardAPI.items);
      if (isObject(source.serviceAccountToken))
        setDefault(source.serviceAccountToken, 'expirationSeconds', DEFAULT_TOKEN_EXPIRATION_SECONDS);
    }
  },
  iscsi: (_, s) => setDefault(s, 'iscsiInterface', 'default'),
  rbd: (_, s) => {
    setDefault(s, 'pool', 'rbd');
    setDefault(s, 'user', 'admin');
    setDefault(s, 'keyring', '/etc/ceph/keyring');
  },
  azureDisk: (_, s) => {
    setDefault(s, 'cachingMode', 'ReadWrite');
    setDefault(s, 'kind', 'Shared');
    setDefault(s, 'fsType', 'ext4');
    setDefault(s, 'readOnly', false);
  },
  scaleIO: (_, s) => {
    if (!s.storageMode) s.storageMode = 'ThinProvisioned';
    if (!s.fsType) s.fsType = 'xfs';
  },
  ephemeral: (obj, s) => {
    const template = s.volumeClaimTemplate;
    if (isObject(template)) {
      if (!isObject(template.spec)) template.spec = {};
      setClaimSpecDefaults(obj, template.spec);
    }
  },
};

/** SetDefaults_Volume (a volume without a source is an emptyDir) and the source's defaults. */
function setVolumeDefaults(obj: Decoding, volume: Volume): void {
  const sources = Object.entries(volume).filter(([k, v]) => k !== 'name' && isObject(v));
  if (sources.length === 0) volume.emptyDir = {};
  for (const [field] of sources) if (hasSourceDefaults(field)) setSourceDefaults(obj, volume, field);
}

function hasSourceDefaults(field: string): field is keyof SourceDefaults {
  return Object.hasOwn(SOURCE_DEFAULTS, field);
}

/** The defaults of the volume's `field` source, when it is set. */
function setSourceDefaults<F extends SourceField>(obj: Decoding, volume: Volume, field: F): void {
  const source = volume[field];
  const defaults = SOURCE_DEFAULTS[field];
  if (defaults && isObject(source)) defaults(obj, source);
}

function setHandlerDefaults(handler: LifecycleHandler | undefined): void {
  if (handler?.httpGet) {
    if (!handler.httpGet.path) handler.httpGet.path = '/';
    if (!handler.httpGet.scheme) handler.httpGet.scheme = 'HTTP';
  }
}

function setProbeDefaults(probe: Probe | undefined): void {
  if (!probe) return;
  if (!probe.timeoutSeconds) probe.timeoutSeconds = 1;
  if (!probe.periodSeconds) probe.periodSeconds = 10;
  if (!probe.successThreshold) probe.successThreshold = 1;
  if (!probe.failureThreshold) probe.failureThreshold = 3;
  setHandlerDefaults(probe);
  if (probe.grpc && probe.grpc.service === undefined) probe.grpc.service = '';
}

function setEnvDefaults(obj: Decoding, env: EnvVar[] | undefined): void {
  for (const e of env ?? []) {
    setFieldRefDefaults(e.valueFrom?.fieldRef);
    const ref = e.valueFrom?.resourceFieldRef;
    if (ref?.divisor !== undefined) ref.divisor = decodeQuantity(obj, ref.divisor, false);
  }
}

/** SetDefaults_Container and the defaulters of its ports, env, resources, probes and hooks. */
function setContainerDefaults(obj: Decoding, c: Container): void {
  if (!c.imagePullPolicy) c.imagePullPolicy = imageTag(c.image ?? '') === 'latest' ? 'Always' : 'IfNotPresent';
  if (!c.terminationMessagePath) c.terminationMessagePath = '/dev/termination-log';
  if (!c.terminationMessagePolicy) c.terminationMessagePolicy = 'File';
  for (const port of c.ports ?? []) if (!port.protocol) port.protocol = 'TCP';
  setEnvDefaults(obj, c.env);
  decodeResourceList(obj, c.resources?.limits);
  decodeResourceList(obj, c.resources?.requests);
  setProbeDefaults(c.livenessProbe);
  setProbeDefaults(c.readinessProbe);
  setProbeDefaults(c.startupProbe);
  setHandlerDefaults(c.lifecycle?.postStart);
  setHandlerDefaults(c.lifecycle?.preStop);
}

/** Every default of a PodSpec, wherever it is embedded (Pods, pod templates). */
export function setPodSpecDefaults(obj: Decoding, spec: PodSpec): void {
  if (!spec.dnsPolicy) spec.dnsPolicy = 'ClusterFirst';
  if (!spec.restartPolicy) spec.restartPolicy = 'Always';
  if (!spec.securityContext) spec.securityContext = {};
  if (spec.terminationGracePeriodSeconds === undefined) spec.terminationGracePeriodSeconds = DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS;
  if (!spec.schedulerName) spec.schedulerName = DEFAULT_SCHEDULER_NAME;
  // v1 conversion: the deprecated serviceAccount field mirrors serviceAccountName.
  if (!spec.serviceAccountName && spec.serviceAccount) spec.serviceAccountName = spec.serviceAccount;
  if (spec.serviceAccountName) spec.serviceAccount = spec.serviceAccountName;
  else delete spec.serviceAccount;
  for (const volume of spec.volumes ?? []) setVolumeDefaults(obj, volume);
  for (const c of [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])])
    setContainerDefaults(obj, c);
  decodeResourceList(obj, spec.overhead);
}

/** SetDefaults_Pod: requests default to limits, service links on, host ports under hostNetwork. */
export function setPodOnlyDefaults(spec: PodSpec): void {
  for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) {
    const limits = c.resources?.limits;
    if (!limits || !c.resources) continue;
    const requests = (c.resources.requests ??= {});
    for (const [name, value] of Object.entries(limits)) if (!Object.hasOwn(requests, name)) requests[name] = value;
  }
  if (spec.enableServiceLinks === undefined) spec.enableServiceLinks = true;
  if (spec.hostNetwork) {
    for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) {
      for (const port of c.ports ?? []) if (!port.hostPort) port.hostPort = port.containerPort;
    }
  }
}
