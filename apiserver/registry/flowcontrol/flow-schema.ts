/**
 * flowcontrol v1beta3 FlowSchema: matchingPrecedence defaults to 1000; ValidateFlowSchema (Kubernetes
 * 1.28): precedence 1..10000 (1 only for `exempt`), a supported distinguisher, a named priority level,
 * rules with valid subjects and resource or non-resource rules.
 */
import type { FieldError, FieldPath } from '../../api/field-errors.js';
import { fieldPath, forbidden, invalid, notSupported, required } from '../../api/field-errors.js';
import { typedStrategy } from '../../api/strategy.js';
import { nameIsDNSLabel, nameIsDNSSubdomain } from '../../api/validation/names.js';
import type {
  FlowSchema,
  FlowSchemaSpec,
  FlowcontrolV1beta3Subject,
  NonResourcePolicyRule,
  PolicyRulesWithSubjects,
  ResourcePolicyRule,
} from '../../api/generated/types.js';
import { conditionsStatusSubresource, validateConditions } from './conditions.js';

const MAX_MATCHING_PRECEDENCE = 10000;
const DEFAULT_MATCHING_PRECEDENCE = 1000;
const DISTINGUISHERS = ['ByNamespace', 'ByUser'];
const SUBJECT_KINDS = ['Group', 'ServiceAccount', 'User'];
const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'proxy', 'update', 'watch'];
const NS_INTRO = "each member of this list must be '*' or a DNS-1123 label; ";

const hasWildcard = (list: string[]) => list.includes('*');

function validateSubject(s: FlowcontrolV1beta3Subject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const others = (allowed: 'serviceAccount' | 'user' | 'group') => {
    if (allowed !== 'user' && s.user) errs.push(forbidden(path.child('user'), "user is forbidden when subject kind is not 'User'"));
    if (allowed !== 'group' && s.group) errs.push(forbidden(path.child('group'), "group is forbidden when subject kind is not 'Group'"));
    if (allowed !== 'serviceAccount' && s.serviceAccount) {
      errs.push(forbidden(path.child('serviceAccount'), "serviceAccount is forbidden when subject kind is not 'ServiceAccount'"));
    }
  };
  switch (s.kind) {
    case 'ServiceAccount': {
      const sa = s.serviceAccount;
      if (!sa) errs.push(required(path.child('serviceAccount'), "serviceAccount is required when subject kind is 'ServiceAccount'"));
      else {
        if (!sa.name) errs.push(required(path.child('serviceAccount', 'name')));
        else if (sa.name !== '*')
          for (const msg of nameIsDNSSubdomain(sa.name, false)) errs.push(invalid(path.child('serviceAccount', 'name'), sa.name, msg));
        if (!sa.namespace) errs.push(required(path.child('serviceAccount', 'namespace'), 'must specify namespace for service account'));
        else
          for (const msg of nameIsDNSLabel(sa.namespace, false))
            errs.push(invalid(path.child('serviceAccount', 'namespace'), sa.namespace, msg));
      }
      others('serviceAccount');
      break;
    }
    case 'User':
      if (!s.user) errs.push(required(path.child('user'), "user is required when subject kind is 'User'"));
      else if (!s.user.name) errs.push(required(path.child('user', 'name')));
      others('user');
      break;
    case 'Group':
      if (!s.group) errs.push(required(path.child('group'), "group is required when subject kind is 'Group'"));
      else if (!s.group.name) errs.push(required(path.child('group', 'name')));
      others('group');
      break;
    default:
      errs.push(notSupported(path.child('kind'), s.kind ?? '', SUBJECT_KINDS));
  }
  return errs;
}

function validateVerbs(verbs: string[], path: FieldPath): FieldError[] {
  if (verbs.length === 0) return [required(path, 'verbs must contain at least one value')];
  if (hasWildcard(verbs)) return verbs.length > 1 ? [invalid(path, verbs, "if '*' is present, must not specify other verbs")] : [];
  return verbs.every((v) => VERBS.includes(v)) ? [] : [notSupported(path, verbs, VERBS)];
}

/** ValidateNonResourceURLPath. */
function validateNonResourceURL(url: string, path: FieldPath): FieldError[] {
  if (url === '') return [invalid(path, url, 'must not be empty')];
  if (url === '/') return [];
  if (!url.startsWith('/')) return [invalid(path, url, 'must start with slash')];
  if (url.includes(' ')) return [invalid(path, url, 'must not contain white-space')];
  if (url.includes('//')) return [invalid(path, url, 'must not contain double slash')];
  const stars = url.split('*').length - 1;
  if (stars > 1 || (stars === 1 && !url.endsWith('/*'))) return [invalid(path, url, 'wildcard can only do suffix glob matching')];
  return [];
}

function validateNonResourceRule(rule: NonResourcePolicyRule, path: FieldPath): FieldError[] {
  const errs = validateVerbs(rule.verbs ?? [], path.child('verbs'));
  const urls = rule.nonResourceURLs ?? [];
  if (urls.length === 0) errs.push(required(path.child('nonResourceURLs'), 'nonResourceURLs must contain at least one value'));
  else if (hasWildcard(urls)) {
    if (urls.length > 1)
      errs.push(invalid(path.child('nonResourceURLs'), urls, "if '*' is present, must not specify other non-resource URLs"));
  } else for (const [i, u] of urls.entries()) errs.push(...validateNonResourceURL(u, path.child('nonResourceURLs').index(i)));
  return errs;
}

function validateResourceRule(rule: ResourcePolicyRule, path: FieldPath): FieldError[] {
  const errs = validateVerbs(rule.verbs ?? [], path.child('verbs'));
  const groups = rule.apiGroups ?? [];
  if (groups.length === 0) errs.push(required(path.child('apiGroups'), 'resource rules must supply at least one api group'));
  else if (groups.length > 1 && hasWildcard(groups))
    errs.push(invalid(path.child('apiGroups'), groups, "if '*' is present, must not specify other api groups"));
  const resources = rule.resources ?? [];
  if (resources.length === 0) errs.push(required(path.child('resources'), 'resource rules must supply at least one resource'));
  else if (resources.length > 1 && hasWildcard(resources))
    errs.push(invalid(path.child('resources'), resources, "if '*' is present, must not specify other resources"));
  const namespaces = rule.namespaces ?? [];
  if (namespaces.length === 0 && !rule.clusterScope) {
    errs.push(required(path.child('namespaces'), 'resource rules that are not cluster scoped must supply at least one namespace'));
  } else if (hasWildcard(namespaces)) {
    if (namespaces.length > 1)
      errs.push(invalid(path.child('namespaces'), namespaces, "if '*' is present, must not specify other namespaces"));
  } else {
    for (const [i, ns] of namespaces.entries())
      for (const msg of nameIsDNSLabel(ns, false)) errs.push(invalid(path.child('namespaces').index(i), ns, NS_INTRO + msg));
  }
  return errs;
}

function validateRule(rule: PolicyRulesWithSubjects, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const subjects = rule.subjects ?? [];
  if (subjects.length === 0) errs.push(required(path.child('subjects'), 'subjects must contain at least one value'));
  for (const [i, s] of subjects.entries()) errs.push(...validateSubject(s, path.child('subjects').index(i)));
  if (!rule.resourceRules?.length && !rule.nonResourceRules?.length) {
    errs.push(required(path, 'at least one of resourceRules and nonResourceRules has to be non-empty'));
  }
  for (const [i, r] of (rule.resourceRules ?? []).entries()) errs.push(...validateResourceRule(r, path.child('resourceRules').index(i)));
  for (const [i, r] of (rule.nonResourceRules ?? []).entries())
    errs.push(...validateNonResourceRule(r, path.child('nonResourceRules').index(i)));
  return errs;
}

export function validateFlowSchemaSpec(name: string, spec: Partial<FlowSchemaSpec>): FieldError[] {
  const path = fieldPath('spec');
  const errs: FieldError[] = [];
  const precedence = spec.matchingPrecedence ?? 0;
  if (precedence <= 0) errs.push(invalid(path.child('matchingPrecedence'), precedence, 'must be a positive value'));
  if (precedence > MAX_MATCHING_PRECEDENCE) {
    errs.push(invalid(path.child('matchingPrecedence'), precedence, `must not be greater than ${MAX_MATCHING_PRECEDENCE}`));
  }
  if (precedence === 1 && name !== 'exempt') {
    errs.push(invalid(path.child('matchingPrecedence'), precedence, "only the schema named 'exempt' may have matchingPrecedence 1"));
  }
  if (spec.distinguisherMethod && !DISTINGUISHERS.includes(spec.distinguisherMethod.type ?? '')) {
    errs.push(notSupported(path.child('distinguisherMethod', 'type'), spec.distinguisherMethod, DISTINGUISHERS));
  }
  const pl = spec.priorityLevelConfiguration?.name ?? '';
  if (pl) for (const msg of nameIsDNSSubdomain(pl, false)) errs.push(invalid(path.child('priorityLevelConfiguration', 'name'), pl, msg));
  else errs.push(required(path.child('priorityLevelConfiguration', 'name'), 'must reference a priority level'));
  for (const [i, rule] of (spec.rules ?? []).entries()) errs.push(...validateRule(rule, path.child('rules').index(i)));
  return errs;
}

function validateFlowSchema(fs: FlowSchema): FieldError[] {
  return [...validateFlowSchemaSpec(fs.metadata.name ?? '', fs.spec ?? {}), ...validateConditions(fs.status?.conditions)];
}

export const flowSchemaStrategy = typedStrategy<FlowSchema>({
  applyDefaults(fs) {
    const spec = (fs.spec ??= {} as FlowSchemaSpec);
    if (!spec.matchingPrecedence) spec.matchingPrecedence = DEFAULT_MATCHING_PRECEDENCE;
  },
  prepareForCreate(fs) {
    fs.status = {};
  },
  validate: validateFlowSchema,
  validateUpdate: validateFlowSchema,
});

export const flowSchemaStatusStrategy = conditionsStatusSubresource;
