/**
 * Downward API references (fieldRef, resourceFieldRef) in environment variables and downwardAPI
 * volume files, as Kubernetes validates them.
 */
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { invalid, notSupported, required } from '../../../api/field-errors.js';
import { isQualifiedName } from '../../../api/validation/names.js';
import { validateLocalNonReservedPath } from './paths.js';
import { canonicalQuantity, isZeroQuantity } from './quantities.js';
import type { DownwardAPIVolumeFile, ObjectFieldSelector, ResourceFieldSelector } from '../../../api/generated/types.js';
import { validateFileMode } from './file-mode.js';

/** Pod fields environment variables may reference (sorted, as Kubernetes lists them). */
export const ENV_FIELD_PATHS = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.serviceAccountName',
  'status.hostIP',
  'status.podIP',
  'status.podIPs',
];

/** Pod fields downwardAPI volume files may reference. */
const VOLUME_FIELD_PATHS = ['metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid'];

/** Labels ConvertDownwardAPIFieldLabel accepts for v1 pods. */
const CONVERTIBLE_LABELS = new Set([
  'metadata.annotations',
  'metadata.labels',
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.serviceAccountName',
  'spec.schedulerName',
  'status.phase',
  'status.hostIP',
  'status.podIP',
  'status.podIPs',
]);

const CONTAINER_RESOURCE_PATHS = [
  'limits.cpu',
  'limits.ephemeral-storage',
  'limits.memory',
  'requests.cpu',
  'requests.ephemeral-storage',
  'requests.memory',
];
const HUGE_PAGES_PREFIXES = ['limits.hugepages-', 'requests.hugepages-'];

/** fieldpath.SplitMaybeSubscriptedPath: `metadata.labels['key']` → path and subscript. */
function splitSubscript(fieldPath: string): { path: string; subscript?: string } {
  if (!fieldPath.endsWith("']")) return { path: fieldPath };
  const body = fieldPath.slice(0, -2);
  const at = body.indexOf("['");
  if (at <= 0) return { path: fieldPath };
  return { path: body.slice(0, at), subscript: body.slice(at + 2) };
}

/** ConvertDownwardAPIFieldLabel for apiVersion v1: the internal label, or the conversion error. */
function convertFieldLabel(apiVersion: string, label: string): { label?: string; error?: string } {
  if (apiVersion !== 'v1') return { error: `unsupported pod version: ${apiVersion}` };
  const { path, subscript } = splitSubscript(label);
  if (subscript !== undefined) {
    return path === 'metadata.annotations' || path === 'metadata.labels'
      ? { label }
      : { error: `field label does not support subscript: ${label}` };
  }
  if (label === 'spec.host') return { label: 'spec.nodeName' };
  return CONVERTIBLE_LABELS.has(label) ? { label } : { error: `field label not supported: ${label}` };
}

/** validateObjectFieldSelector: apiVersion and fieldPath set, the path one of `allowed` or a label/annotation subscript. */
export function validateObjectFieldSelector(ref: ObjectFieldSelector, allowed: readonly string[], path: FieldPath): FieldError[] {
  if (!ref.apiVersion) return [required(path.child('apiVersion'))];
  if (!ref.fieldPath) return [required(path.child('fieldPath'))];
  const converted = convertFieldLabel(ref.apiVersion, ref.fieldPath);
  if (converted.error !== undefined)
    return [invalid(path.child('fieldPath'), ref.fieldPath, `error converting fieldPath: ${converted.error}`)];
  const { path: field, subscript } = splitSubscript(converted.label ?? '');
  if (subscript !== undefined) {
    const key = field === 'metadata.annotations' ? subscript.toLowerCase() : subscript;
    if (field === 'metadata.annotations' || field === 'metadata.labels') return isQualifiedName(key).map((m) => invalid(path, key, m));
    return [invalid(path, field, 'does not support subscript')];
  }
  return allowed.includes(field) ? [] : [notSupported(path.child('fieldPath'), field, allowed)];
}

const MEMORY_DIVISORS = ['1', '1k', '1M', '1G', '1T', '1P', '1E', '1Ki', '1Mi', '1Gi', '1Ti', '1Pi', '1Ei'];
const MEMORY_DIVISOR_LIST = '1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei';

function validateDivisor(resource: string, divisor: string | undefined, path: FieldPath): FieldError[] {
  if (divisor === undefined || isZeroQuantity(divisor)) return [];
  const canonical = canonicalQuantity(divisor);
  const bad = (allowed: string[], what: string, list: string) =>
    allowed.includes(canonical)
      ? []
      : [invalid(path.child('divisor'), resource, `only divisor's values ${list} are supported with the ${what}`)];
  const errs: FieldError[] = [];
  if (resource === 'limits.cpu' || resource === 'requests.cpu') errs.push(...bad(['1m', '1'], 'cpu resource', '1m and 1'));
  if (resource === 'limits.memory' || resource === 'requests.memory')
    errs.push(...bad(MEMORY_DIVISORS, 'memory resource', MEMORY_DIVISOR_LIST));
  if (resource === 'limits.ephemeral-storage' || resource === 'requests.ephemeral-storage') {
    errs.push(...bad(MEMORY_DIVISORS, 'local ephemeral storage resource', MEMORY_DIVISOR_LIST));
  }
  if (HUGE_PAGES_PREFIXES.some((p) => resource.startsWith(p)))
    errs.push(...bad(MEMORY_DIVISORS, 'hugepages resource', MEMORY_DIVISOR_LIST));
  return errs;
}

/** validateContainerResourceFieldSelector; `volume` files must name their container. */
export function validateResourceFieldSelector(ref: ResourceFieldSelector, path: FieldPath, volume: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const resource = ref.resource ?? '';
  if (volume && !ref.containerName) errs.push(required(path.child('containerName')));
  else if (!resource) errs.push(required(path.child('resource')));
  else if (!CONTAINER_RESOURCE_PATHS.includes(resource) && !HUGE_PAGES_PREFIXES.some((p) => resource.startsWith(p))) {
    errs.push(notSupported(path.child('resource'), resource, CONTAINER_RESOURCE_PATHS));
  }
  errs.push(...validateDivisor(resource, ref.divisor, path));
  return errs;
}

/** validateDownwardAPIVolumeFile: a local path and exactly one of fieldRef and resourceFieldRef. */
export function validateDownwardAPIFile(file: DownwardAPIVolumeFile, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!file.path) errs.push(required(path.child('path')));
  errs.push(...validateLocalNonReservedPath(file.path ?? '', path.child('path')));
  if (file.fieldRef) {
    errs.push(...validateObjectFieldSelector(file.fieldRef, VOLUME_FIELD_PATHS, path.child('fieldRef')));
    if (file.resourceFieldRef) errs.push(invalid(path, 'resource', 'fieldRef and resourceFieldRef can not be specified simultaneously'));
  } else if (file.resourceFieldRef) {
    errs.push(...validateResourceFieldSelector(file.resourceFieldRef, path.child('resourceFieldRef'), true));
  } else {
    errs.push(required(path, 'one of fieldRef and resourceFieldRef is required'));
  }
  errs.push(...validateFileMode(file.mode, path.child('mode')));
  return errs;
}
