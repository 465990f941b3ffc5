import { jsonEqual } from '../../../api/object.js';
import { typedStrategy } from '../../../api/strategy.js';
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { duplicate, fieldPath, forbidden, invalid, notSupported, required, tooLong } from '../../../api/field-errors.js';
import { isQualifiedName } from '../../../api/validation/names.js';
import { FIELD_IMMUTABLE_ERROR_MSG } from '../../../api/validation/object-meta.js';
import { validateLabelName } from '../../shared/pod-spec/label-selector.js';
import type { StorageClass, TopologySelectorTerm } from '../../../api/generated/types.js';

const MAX_PARAMETERS = 512;
const MAX_PARAMETERS_SIZE = 256 * 1024;
const RECLAIM_POLICIES = ['Delete', 'Retain'];
const BINDING_MODES = ['Immediate', 'WaitForFirstConsumer'];

function validateParameters(params: Record<string, string> | undefined): FieldError[] {
  const path = fieldPath('parameters');
  const entries = Object.entries(params ?? {});
  if (entries.length > MAX_PARAMETERS) return [tooLong(path, '', MAX_PARAMETERS)];
  const errors: FieldError[] = [];
  let size = 0;
  for (const [k, v] of entries) {
    if (k.length < 1) errors.push(invalid(path, k, 'field can not be empty.'));
    size += Buffer.byteLength(k) + Buffer.byteLength(v);
  }
  if (size > MAX_PARAMETERS_SIZE) errors.push(tooLong(path, '', MAX_PARAMETERS_SIZE));
  return errors;
}

/** ValidateTopologySelectorTerm: each expression has distinct values and a unique, valid key; returns key → values. */
function validateTopologyTerm(term: TopologySelectorTerm, path: FieldPath) {
  const errors: FieldError[] = [];
  const exprs = new Map<string, Set<string>>();
  (term.matchLabelExpressions ?? []).forEach((req, i) => {
    const p = path.child('matchLabelExpressions').index(i);
    const values = req.values ?? [];
    if (values.length === 0) errors.push(required(p.child('values'), ''));
    const set = new Set<string>();
    values.forEach((v, j) => {
      if (set.has(v)) errors.push(duplicate(p.child('values').index(j), v));
      set.add(v);
    });
    errors.push(...validateLabelName(req.key ?? '', p.child('key')));
    if (exprs.has(req.key ?? '')) errors.push(duplicate(p.child('key'), req.key ?? ''));
    exprs.set(req.key ?? '', set);
  });
  return { exprs, errors };
}

function sameTopology(a: Map<string, Set<string>>, b: Map<string, Set<string>>): boolean {
  return a.size === b.size && [...a].every(([k, v]) => b.has(k) && b.get(k)!.size === v.size && [...v].every((x) => b.get(k)!.has(x)));
}

/**
 * validateAllowedTopologies. Kubernetes compares each term with the terms before it and with one empty
 * placeholder per term, so a term without expressions is reported once per term.
 */
function validateAllowedTopologies(terms: TopologySelectorTerm[] | undefined): FieldError[] {
  const errors: FieldError[] = [];
  const list = terms ?? [];
  const seen: Map<string, Set<string>>[] = list.map(() => new Map());
  list.forEach((term, i) => {
    const path = fieldPath('allowedTopologies').index(i);
    const { exprs, errors: termErrors } = validateTopologyTerm(term, path);
    errors.push(...termErrors);
    for (const other of seen) if (sameTopology(exprs, other)) errors.push(duplicate(path.child('matchLabelExpressions'), ''));
    seen.push(exprs);
  });
  return errors;
}

function validateStorageClass(s: StorageClass): FieldError[] {
  const errors: FieldError[] = [];
  const provisioner = s.provisioner ?? '';
  if (!provisioner) errors.push(required('provisioner', provisioner));
  else errors.push(...isQualifiedName(provisioner.toLowerCase()).map((m) => invalid('provisioner', provisioner, m)));
  errors.push(...validateParameters(s.parameters));
  if (s.reclaimPolicy && !RECLAIM_POLICIES.includes(s.reclaimPolicy))
    errors.push(notSupported('reclaimPolicy', s.reclaimPolicy, RECLAIM_POLICIES));
  if (s.volumeBindingMode === undefined) errors.push(required('volumeBindingMode', ''));
  else if (!BINDING_MODES.includes(s.volumeBindingMode)) errors.push(notSupported('volumeBindingMode', s.volumeBindingMode, BINDING_MODES));
  errors.push(...validateAllowedTopologies(s.allowedTopologies));
  return errors;
}

export const storageClassStrategy = typedStrategy<StorageClass>({
  applyDefaults(obj) {
    if (obj.reclaimPolicy === undefined) obj.reclaimPolicy = 'Delete';
    if (obj.volumeBindingMode === undefined) obj.volumeBindingMode = 'Immediate';
  },
  validate: validateStorageClass,
  validateUpdate(next, prev) {
    const errors = validateStorageClass(next);
    if (!jsonEqual(next.parameters ?? {}, prev.parameters ?? {}))
      errors.push(forbidden('parameters', 'updates to parameters are forbidden.'));
    if (next.provisioner !== prev.provisioner) errors.push(forbidden('provisioner', 'updates to provisioner are forbidden.'));
    if (next.reclaimPolicy !== prev.reclaimPolicy) errors.push(forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
    if (next.volumeBindingMode !== prev.volumeBindingMode)
      errors.push(invalid('volumeBindingMode', next.volumeBindingMode ?? null, FIELD_IMMUTABLE_ERROR_MSG));
    return errors;
  },
});
