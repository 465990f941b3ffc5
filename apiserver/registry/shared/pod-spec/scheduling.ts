/**
 * Scheduling constraints of a pod spec: node and pod (anti-)affinity, tolerations and topology spread
 * constraints, as Kubernetes 1.28 validates them.
 */
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { duplicate, forbidden, invalid, notSupported, required } from '../../../api/field-errors.js';
import { isValidLabelValue, nameIsDNSLabel, nameIsDNSSubdomain } from '../../../api/validation/names.js';
import { validateLabelName, validateLabelSelector, validateRequirementOperator } from './label-selector.js';
import type {
  Affinity,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  PodAffinity,
  PodAffinityTerm,
  Toleration,
  TopologySpreadConstraint,
} from '../../../api/generated/types.js';

const WEIGHT_DETAIL = 'must be in the range 1-100';

/** ValidateNodeSelectorRequirement (1.28: values are not checked as label values). */
function validateNodeSelectorRequirement(req: NodeSelectorRequirement, path: FieldPath): FieldError[] {
  return [
    ...validateRequirementOperator(req.operator, req.values ?? [], path, true),
    ...validateLabelName(req.key ?? '', path.child('key')),
  ];
}

/** ValidateNodeFieldSelectorRequirement: only metadata.name, with In/NotIn and one value. */
function validateNodeFieldSelectorRequirement(req: NodeSelectorRequirement, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const values = req.values ?? [];
  if (req.operator === 'In' || req.operator === 'NotIn') {
    if (values.length !== 1)
      errs.push(required(path.child('values'), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
  } else errs.push(invalid(path.child('operator'), req.operator ?? '', 'not a valid selector operator'));
  if (req.key !== 'metadata.name') errs.push(invalid(path.child('key'), req.key ?? '', 'not a valid field selector key'));
  else values.forEach((v, i) => errs.push(...nameIsDNSSubdomain(v, false).map((m) => invalid(path.child('values').index(i), v, m))));
  return errs;
}

/** ValidateNodeSelectorTerm. */
function validateNodeSelectorTerm(term: NodeSelectorTerm, path: FieldPath): FieldError[] {
  return [
    ...(term.matchExpressions ?? []).flatMap((r, j) => validateNodeSelectorRequirement(r, path.child('matchExpressions').index(j))),
    ...(term.matchFields ?? []).flatMap((r, j) => validateNodeFieldSelectorRequirement(r, path.child('matchFields').index(j))),
  ];
}

/** ValidateNodeSelector: at least one term, each valid. */
export function validateNodeSelector(selector: { nodeSelectorTerms?: NodeSelectorTerm[] }, path: FieldPath): FieldError[] {
  const terms = selector.nodeSelectorTerms ?? [];
  const termsPath = path.child('nodeSelectorTerms');
  if (terms.length === 0) return [required(termsPath, 'must have at least one node selector term')];
  return terms.flatMap((t, i) => validateNodeSelectorTerm(t, termsPath.index(i)));
}

function validateWeight(weight: number | undefined, path: FieldPath): FieldError[] {
  const w = weight ?? 0;
  return w <= 0 || w > 100 ? [invalid(path, w, WEIGHT_DETAIL)] : [];
}

function validatePodAffinityTerm(term: PodAffinityTerm, path: FieldPath): FieldError[] {
  const errs = [
    ...validateLabelSelector(term.labelSelector, path.child('labelSelector')),
    ...validateLabelSelector(term.namespaceSelector, path.child('namespaceSelector')),
  ];
  for (const ns of term.namespaces ?? []) errs.push(...nameIsDNSLabel(ns, false).map((m) => invalid(path.child('namespace'), ns, m)));
  if (!term.topologyKey) errs.push(required(path.child('topologyKey'), 'can not be empty'));
  return [...errs, ...validateLabelName(term.topologyKey ?? '', path.child('topologyKey'))];
}

function validatePodAffinityRules(rules: PodAffinity, path: FieldPath): FieldError[] {
  const requiredPath = path.child('requiredDuringSchedulingIgnoredDuringExecution');
  const preferredPath = path.child('preferredDuringSchedulingIgnoredDuringExecution');
  return [
    ...(rules.requiredDuringSchedulingIgnoredDuringExecution ?? []).flatMap((t, i) => validatePodAffinityTerm(t, requiredPath.index(i))),
    ...(rules.preferredDuringSchedulingIgnoredDuringExecution ?? []).flatMap((t, i) => [
      ...validateWeight(t.weight, preferredPath.index(i).child('weight')),
      ...validatePodAffinityTerm(t.podAffinityTerm ?? {}, preferredPath.index(i).child('podAffinityTerm')),
    ]),
  ];
}

/** validateAffinity: node affinity, pod affinity and pod anti-affinity. */
export function validateAffinity(affinity: Affinity | undefined, path: FieldPath): FieldError[] {
  if (!affinity) return [];
  const errs: FieldError[] = [];
  const node = affinity.nodeAffinity;
  if (node) {
    const nodePath = path.child('nodeAffinity');
    const requiredSelector = node.requiredDuringSchedulingIgnoredDuringExecution;
    if (requiredSelector)
      errs.push(...validateNodeSelector(requiredSelector, nodePath.child('requiredDuringSchedulingIgnoredDuringExecution')));
    const preferredPath = nodePath.child('preferredDuringSchedulingIgnoredDuringExecution');
    (node.preferredDuringSchedulingIgnoredDuringExecution ?? []).forEach((t, i) => {
      errs.push(...validateWeight(t.weight, preferredPath.index(i).child('weight')));
      errs.push(...validateNodeSelectorTerm(t.preference ?? {}, preferredPath.index(i).child('preference')));
    });
  }
  if (affinity.podAffinity) errs.push(...validatePodAffinityRules(affinity.podAffinity, path.child('podAffinity')));
  if (affinity.podAntiAffinity) errs.push(...validatePodAffinityRules(affinity.podAntiAffinity, path.child('podAntiAffinity')));
  return errs;
}

const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** ValidateTolerations. */
export function validateTolerations(tolerations: Toleration[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  (tolerations ?? []).forEach((t, i) => {
    const at = path.index(i);
    const key = t.key ?? '';
    const operator = t.operator ?? '';
    if (key) errs.push(...validateLabelName(key, at.child('key')));
    if (!key && operator !== 'Exists') {
      errs.push(
        invalid(at.child('operator'), operator, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'),
      );
    }
    if (t.tolerationSeconds !== undefined && t.effect !== 'NoExecute') {
      errs.push(invalid(at.child('effect'), t.effect ?? '', "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    if (operator === 'Equal' || operator === '') {
      const msgs = isValidLabelValue(t.value ?? '');
      if (msgs.length > 0) errs.push(invalid(at.child('operator'), t.value ?? '', msgs.join(';')));
    } else if (operator === 'Exists') {
      if (t.value) errs.push(invalid(at.child('operator'), t.value, "value must be empty when `operator` is 'Exists'"));
    } else errs.push(notSupported(at.child('operator'), operator, ['Equal', 'Exists']));
    if (t.effect && !TAINT_EFFECTS.includes(t.effect)) errs.push(notSupported(at.child('effect'), t.effect, TAINT_EFFECTS));
  });
  return errs;
}

const SCHEDULE_ACTIONS = ['DoNotSchedule', 'ScheduleAnyway'];
const NODE_INCLUSION_POLICIES = ['Honor', 'Ignore'];
const NOT_POSITIVE = 'must be greater than zero';

function validateMatchLabelKeys(keys: string[] | undefined, c: TopologySpreadConstraint, path: FieldPath): FieldError[] {
  if (!keys || keys.length === 0) return [];
  const errs: FieldError[] = [];
  const selectorKeys = new Set([
    ...Object.keys(c.labelSelector?.matchLabels ?? {}),
    ...(c.labelSelector?.matchExpressions ?? []).map((e) => e.key),
  ]);
  if (!c.labelSelector) errs.push(forbidden(path, 'must not be specified when labelSelector is not set'));
  keys.forEach((key, i) => {
    errs.push(...validateLabelName(key, path.index(i)));
    if (selectorKeys.has(key)) errs.push(invalid(path.index(i), key, 'exists in both matchLabelKeys and labelSelector'));
  });
  return errs;
}

/** validateTopologySpreadConstraints. */
export function validateTopologySpreadConstraints(constraints: TopologySpreadConstraint[] | undefined, path: FieldPath): FieldError[] {
  const list = constraints ?? [];
  const errs: FieldError[] = [];
  list.forEach((c, i) => {
    const at = path.index(i);
    const action = c.whenUnsatisfiable ?? '';
    if ((c.maxSkew ?? 0) <= 0) errs.push(invalid(at.child('maxSkew'), c.maxSkew ?? 0, NOT_POSITIVE));
    if (!c.topologyKey) errs.push(required(at.child('topologyKey'), 'can not be empty'));
    if (!SCHEDULE_ACTIONS.includes(action)) errs.push(notSupported(at.child('whenUnsatisfiable'), action, SCHEDULE_ACTIONS));
    if (list.slice(i + 1).some((o) => (o.topologyKey ?? '') === (c.topologyKey ?? '') && (o.whenUnsatisfiable ?? '') === action)) {
      errs.push(duplicate(at.child('{topologyKey, whenUnsatisfiable}'), `{${c.topologyKey ?? ''}, ${action}}`));
    }
    if (c.minDomains !== undefined) {
      if (c.minDomains <= 0) errs.push(invalid(at.child('minDomains'), c.minDomains, NOT_POSITIVE));
      if (action !== 'DoNotSchedule') {
        errs.push(
          invalid(at.child('minDomains'), c.minDomains, `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${action}`),
        );
      }
    }
    for (const field of ['nodeAffinityPolicy', 'nodeTaintsPolicy'] as const) {
      const policy = c[field];
      if (policy !== undefined && !NODE_INCLUSION_POLICIES.includes(policy))
        errs.push(notSupported(at.child(field), policy, NODE_INCLUSION_POLICIES));
    }
    errs.push(...validateMatchLabelKeys(c.matchLabelKeys, c, at.child('matchLabelKeys')));
    errs.push(...validateLabelSelector(c.labelSelector, at.child('labelSelector')));
  });
  return errs;
}
