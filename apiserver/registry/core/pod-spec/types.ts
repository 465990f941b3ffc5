/**
 * The shapes of core/v1 PodSpec and its parts as decoded JSON, for the validation and defaulting code
 * of this folder. Every field is optional: the schema check has already made sure that present fields
 * have the right JSON type, nothing more.
 */
import type { LabelSelectorObject } from '../../../runtime/selectors/label-selector.js';

/** An int-or-string value (ports, maxUnavailable, …). */
export type IntOrString = number | string;

/** A resource map (requests, limits, capacity): resource name → quantity string. */
export type ResourceList = Record<string, string>;

export interface KeyToPath {
  key?: string;
  path?: string;
  mode?: number;
}

export interface LocalObjectReference {
  name?: string;
}

export interface ObjectFieldSelector {
  apiVersion?: string;
  fieldPath?: string;
}

export interface ResourceFieldSelector {
  containerName?: string;
  resource?: string;
  divisor?: string;
}

export interface DownwardAPIVolumeFile {
  path?: string;
  fieldRef?: ObjectFieldSelector;
  resourceFieldRef?: ResourceFieldSelector;
  mode?: number;
}

export interface ItemsSource {
  name?: string;
  items?: KeyToPath[];
  defaultMode?: number;
  optional?: boolean;
}

export interface ProjectionSource {
  secret?: ItemsSource;
  configMap?: ItemsSource;
  downwardAPI?: { items?: DownwardAPIVolumeFile[] };
  serviceAccountToken?: { audience?: string; expirationSeconds?: number; path?: string };
}

/** PersistentVolumeClaimTemplate (an ephemeral volume's claim). */
export interface PersistentVolumeClaimTemplate {
  metadata?: Record<string, unknown>;
  spec?: PersistentVolumeClaimSpec;
}

export interface TypedObjectReference {
  apiGroup?: string;
  kind?: string;
  name?: string;
  namespace?: string;
}

export interface PersistentVolumeClaimSpec {
  accessModes?: string[];
  selector?: LabelSelectorObject;
  resources?: { requests?: ResourceList; limits?: ResourceList };
  volumeName?: string;
  storageClassName?: string;
  volumeMode?: string;
  dataSource?: TypedObjectReference;
  dataSourceRef?: TypedObjectReference;
}

export interface Volume {
  name?: string;
  [source: string]: unknown;
}

export interface ContainerPort {
  name?: string;
  containerPort?: number;
  hostPort?: number;
  hostIP?: string;
  protocol?: string;
}

export interface EnvVar {
  name?: string;
  value?: string;
  valueFrom?: {
    fieldRef?: ObjectFieldSelector;
    resourceFieldRef?: ResourceFieldSelector;
    configMapKeyRef?: { name?: string; key?: string; optional?: boolean };
    secretKeyRef?: { name?: string; key?: string; optional?: boolean };
  };
}

export interface EnvFromSource {
  prefix?: string;
  configMapRef?: { name?: string; optional?: boolean };
  secretRef?: { name?: string; optional?: boolean };
}

export interface VolumeMount {
  name?: string;
  mountPath?: string;
  subPath?: string;
  subPathExpr?: string;
  readOnly?: boolean;
  mountPropagation?: string;
}

export interface VolumeDevice {
  name?: string;
  devicePath?: string;
}

export interface HTTPGetAction {
  path?: string;
  port?: IntOrString;
  host?: string;
  scheme?: string;
  httpHeaders?: { name?: string; value?: string }[];
}

/** A probe or a lifecycle handler: at most one action. */
export interface Handler {
  exec?: { command?: string[] };
  httpGet?: HTTPGetAction;
  tcpSocket?: { port?: IntOrString; host?: string };
  grpc?: { port?: number; service?: string };
}

export interface Probe extends Handler {
  initialDelaySeconds?: number;
  timeoutSeconds?: number;
  periodSeconds?: number;
  successThreshold?: number;
  failureThreshold?: number;
  terminationGracePeriodSeconds?: number;
}

export interface ResourceRequirements {
  limits?: ResourceList;
  requests?: ResourceList;
  claims?: { name?: string }[];
}

export interface SeccompProfile {
  type?: string;
  localhostProfile?: string;
}

export interface WindowsOptions {
  gmsaCredentialSpecName?: string;
  gmsaCredentialSpec?: string;
  runAsUserName?: string;
  hostProcess?: boolean;
}

export interface SecurityContext {
  privileged?: boolean;
  runAsUser?: number;
  runAsGroup?: number;
  runAsNonRoot?: boolean;
  allowPrivilegeEscalation?: boolean;
  capabilities?: { add?: string[]; drop?: string[] };
  procMount?: string;
  readOnlyRootFilesystem?: boolean;
  seccompProfile?: SeccompProfile;
  seLinuxOptions?: Record<string, string>;
  windowsOptions?: WindowsOptions;
}

export interface PodSecurityContext {
  runAsUser?: number;
  runAsGroup?: number;
  runAsNonRoot?: boolean;
  fsGroup?: number;
  fsGroupChangePolicy?: string;
  supplementalGroups?: number[];
  sysctls?: { name?: string; value?: string }[];
  seccompProfile?: SeccompProfile;
  seLinuxOptions?: Record<string, string>;
  windowsOptions?: WindowsOptions;
}

export interface Container {
  name?: string;
  image?: string;
  command?: string[];
  args?: string[];
  workingDir?: string;
  ports?: ContainerPort[];
  env?: EnvVar[];
  envFrom?: EnvFromSource[];
  resources?: ResourceRequirements;
  resizePolicy?: { resourceName?: string; restartPolicy?: string }[];
  restartPolicy?: string;
  volumeMounts?: VolumeMount[];
  volumeDevices?: VolumeDevice[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  lifecycle?: { postStart?: Handler; preStop?: Handler };
  terminationMessagePath?: string;
  terminationMessagePolicy?: string;
  imagePullPolicy?: string;
  securityContext?: SecurityContext;
  stdin?: boolean;
  stdinOnce?: boolean;
  tty?: boolean;
  /** Ephemeral containers only. */
  targetContainerName?: string;
}

export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

export interface NodeSelectorRequirement {
  key?: string;
  operator?: string;
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

export interface PodAffinityTerm {
  labelSelector?: LabelSelectorObject;
  namespaces?: string[];
  topologyKey?: string;
  namespaceSelector?: LabelSelectorObject;
}

export interface Affinity {
  nodeAffinity?: {
    requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: NodeSelectorTerm[] };
    preferredDuringSchedulingIgnoredDuringExecution?: { weight?: number; preference?: NodeSelectorTerm }[];
  };
  podAffinity?: PodAffinityRules;
  podAntiAffinity?: PodAffinityRules;
}

export interface PodAffinityRules {
  requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
  preferredDuringSchedulingIgnoredDuringExecution?: { weight?: number; podAffinityTerm?: PodAffinityTerm }[];
}

export interface TopologySpreadConstraint {
  maxSkew?: number;
  topologyKey?: string;
  whenUnsatisfiable?: string;
  labelSelector?: LabelSelectorObject;
  minDomains?: number;
  nodeAffinityPolicy?: string;
  nodeTaintsPolicy?: string;
  matchLabelKeys?: string[];
}

export interface PodSpec {
  volumes?: Volume[];
  initContainers?: Container[];
  containers?: Container[];
  ephemeralContainers?: Container[];
  restartPolicy?: string;
  terminationGracePeriodSeconds?: number;
  activeDeadlineSeconds?: number;
  dnsPolicy?: string;
  nodeSelector?: Record<string, string>;
  serviceAccountName?: string;
  serviceAccount?: string;
  automountServiceAccountToken?: boolean;
  nodeName?: string;
  hostNetwork?: boolean;
  hostPID?: boolean;
  hostIPC?: boolean;
  shareProcessNamespace?: boolean;
  securityContext?: PodSecurityContext;
  imagePullSecrets?: LocalObjectReference[];
  hostname?: string;
  subdomain?: string;
  affinity?: Affinity;
  schedulerName?: string;
  tolerations?: Toleration[];
  hostAliases?: { ip?: string; hostnames?: string[] }[];
  priorityClassName?: string;
  priority?: number;
  dnsConfig?: { nameservers?: string[]; searches?: string[]; options?: { name?: string; value?: string }[] };
  readinessGates?: { conditionType?: string }[];
  runtimeClassName?: string;
  enableServiceLinks?: boolean;
  preemptionPolicy?: string;
  overhead?: ResourceList;
  topologySpreadConstraints?: TopologySpreadConstraint[];
  setHostnameAsFQDN?: boolean;
  os?: { name?: string };
  hostUsers?: boolean;
  schedulingGates?: { name?: string }[];
  resourceClaims?: { name?: string; source?: { resourceClaimName?: string; resourceClaimTemplateName?: string } }[];
}

/** core/v1 PodTemplateSpec: template metadata (labels, annotations) and a PodSpec. */
export interface PodTemplateSpec {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string>; [field: string]: unknown };
  spec?: PodSpec;
}
