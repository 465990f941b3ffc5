/**
 * The CRD-side checks of CEL validation rules, as Kubernetes runs them when a CRD is written: each rule
 * must type-check against its schema node, must not read oldSelf where values cannot be correlated
 * (inside atomic lists), and its estimated cost — one evaluation's estimate times how many times the
 * rule may run (the product of maxItems/maxProperties above it, or as many values as fit in a request)
 * — must stay within the per-rule limit, and all rules' together within the CRD's.
 */
import { forbidden, invalid, type FieldError, type FieldPath } from '../../../api/field-errors.js';
import { compileRule } from '../customresource/cel-rules.js';
import { ext, isObject, type JsonSchemaProps } from '../../shared/cel-schema/json-schema.js';
import { typeCheck, type Checked } from '../../shared/cel-schema/cel-type-check.js';
import { DYN, schemaCelType, type CelT } from '../../shared/cel-schema/cel-types.js';
import { estimateCost, unboundedCardinality } from './cel-cost.js';

/** Kubernetes' StaticEstimatedCostLimit: the most one rule may be estimated to cost. */
export const PER_RULE_COST_LIMIT = 10_000_000;
/** Kubernetes' StaticEstimatedCRDCostLimit: the most all rules of a schema may be estimated to cost. */
export const PER_CRD_COST_LIMIT = 100_000_000;

/** Kubernetes' wording, with Go's %f below 1.5 and %.1f up to 100. */
function costMessage(what: string, cost: number, limit: number): string {
  const factor = cost / limit;
  const by = factor > 100 ? 'more than 100x' : factor < 1.5 ? `${factor.toFixed(6)}x` : `${factor.toFixed(1)}x`;
  return `${what} exceeds budget by factor of ${by} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

/** The rules' costs over the whole schema: the total and the most expensive (at least 1% of the limit). */
interface TotalCost {
  total: number;
  mostExpensive: { path: FieldPath; cost: number }[];
}

function observe(totals: TotalCost, path: FieldPath, cost: number): void {
  totals.total += cost;
  if (cost < PER_CRD_COST_LIMIT / 100) return;
  totals.mostExpensive.push({ path, cost });
  totals.mostExpensive.sort((a, b) => b.cost - a.cost);
  totals.mostExpensive.length = Math.min(totals.mostExpensive.length, 4);
}

/** By how much a node multiplies the number of its children's values: maxItems/maxProperties, or unbounded. */
function childFactor(s: JsonSchemaProps): number | undefined {
  if (s.type === 'array') return typeof s.maxItems === 'number' ? Math.max(0, s.maxItems) : undefined;
  if (s.type === 'object' && s.additionalProperties !== undefined && s.additionalProperties !== false)
    return typeof s.maxProperties === 'number' ? Math.max(0, s.maxProperties) : undefined;
  return 1;
}

/**
 * The rule and its messageExpression type-checked with `self` and `oldSelf` of the node's type: the
 * rule must be a bool, the message a string, as Kubernetes refuses them.
 */
function checkRuleTypes(rule: Record<string, unknown>, self: CelT, at: FieldPath): { errors: FieldError[]; checked: Checked[] } {
  const vars = { self, oldSelf: self };
  const errors: FieldError[] = [];
  const checked: Checked[] = [];
  const ruleTypes = typeCheck(String(rule.rule), vars);
  if ('error' in ruleTypes) errors.push(invalid(at.child('rule'), rule.rule, `compilation failed: ${ruleTypes.error}`));
  else if (!['bool', 'dyn'].includes(ruleTypes.type.kind))
    errors.push(invalid(at.child('rule'), rule.rule, 'cel expression must evaluate to a bool'));
  else checked.push(ruleTypes);
  if (typeof rule.messageExpression !== 'string' || rule.messageExpression.trim() === '') return { errors, checked };
  const message = typeCheck(rule.messageExpression, vars);
  const messageAt = at.child('messageExpression');
  if ('error' in message) errors.push(invalid(messageAt, rule.messageExpression, `messageExpression compilation failed: ${message.error}`));
  else if (!['string', 'dyn'].includes(message.type.kind))
    errors.push(invalid(messageAt, rule.messageExpression, 'messageExpression must evaluate to a string'));
  else checked.push(message);
  return { errors, checked };
}

/** Errors of the rules at and under a version's schema. */
export function validateCelRules(schema: JsonSchemaProps, path: FieldPath, prefix: string): FieldError[] {
  const errors: FieldError[] = [];
  const totals: TotalCost = { total: 0, mostExpensive: [] };
  walk(schema, path, { prefix, errors, totals }, { uncorrelatable: undefined, cardinality: 1, depth: 0, resourceRoot: true });
  if (totals.total > PER_CRD_COST_LIMIT) {
    for (const e of totals.mostExpensive)
      errors.push(forbidden(e.path, 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema'));
    const what = `${prefix}validations estimated rule cost total for entire OpenAPIv3 schema`;
    errors.push(forbidden(path, costMessage(what, totals.total, PER_CRD_COST_LIMIT)));
  }
  return errors;
}

interface Walk {
  prefix: string;
  errors: FieldError[];
  totals: TotalCost;
}

/** Where a node is: under an atomic list (oldSelf not allowed), how many times it may occur (undefined: unbounded). */
interface Place {
  uncorrelatable: FieldPath | undefined;
  cardinality: number | undefined;
  depth: number;
  resourceRoot: boolean;
}

/** Errors of one rule: its types, oldSelf where it cannot be correlated, its estimated cost. */
function checkRule(rule: Record<string, unknown>, self: CelT, at: FieldPath, w: Walk, place: Place): void {
  const { errors, checked } = checkRuleTypes(rule, self, at);
  if (errors.length) {
    w.errors.push(...errors);
    return;
  }
  const compiled = compileRule(rule as { rule: string; messageExpression?: string });
  if ('error' in compiled) {
    w.errors.push(invalid(at.child('rule'), rule.rule, `compilation failed: ${compiled.error}`));
    return;
  }
  // The rule runs once per value its node may hold; its messageExpression only when it fails.
  const [ruleTypes, messageTypes] = checked;
  const cost = Math.min(estimateCost(ruleTypes) * (place.cardinality ?? unboundedCardinality(self)), 2 ** 64 - 1);
  if (cost > PER_RULE_COST_LIMIT) w.errors.push(forbidden(at.child('rule'), costMessage('estimated rule cost', cost, PER_RULE_COST_LIMIT)));
  observe(w.totals, at.child('rule'), cost);
  if (messageTypes) {
    const messageCost = estimateCost(messageTypes);
    const messageAt = at.child('messageExpression');
    if (messageCost > PER_RULE_COST_LIMIT)
      w.errors.push(forbidden(messageAt, costMessage('estimated messageExpression cost', messageCost, PER_RULE_COST_LIMIT)));
    observe(w.totals, messageAt, messageCost);
  }
  if (compiled.usesOldSelf && place.uncorrelatable) {
    w.errors.push(
      invalid(
        at.child('rule'),
        rule.rule,
        `oldSelf cannot be used on the uncorrelatable portion of the schema within ${place.uncorrelatable}`,
      ),
    );
  }
}

function walk(s: JsonSchemaProps, path: FieldPath, w: Walk, place: Place): void {
  if (place.depth > 64) return;
  const { prefix } = w;
  const rules = ext(s, 'validations', prefix);
  if (Array.isArray(rules)) {
    const self = schemaCelType(s, prefix, place.resourceRoot || ext(s, 'embedded-resource', prefix) === true) ?? DYN;
    rules.forEach((rule, i) => {
      if (!isObject(rule) || typeof rule.rule !== 'string' || rule.rule.trim() === '') return;
      checkRule(rule, self, path.child(`${prefix}validations`).index(i), w, place);
    });
  }
  const factor = childFactor(s);
  const child = (uncorrelatable: FieldPath | undefined): Place => ({
    uncorrelatable,
    cardinality: place.cardinality === undefined || factor === undefined ? undefined : place.cardinality * factor,
    depth: place.depth + 1,
    resourceRoot: false,
  });
  if (isObject(s.properties)) {
    for (const [k, v] of Object.entries(s.properties))
      if (isObject(v)) walk(v, path.child('properties').key(k), w, child(place.uncorrelatable));
  }
  if (isObject(s.additionalProperties)) walk(s.additionalProperties, path.child('additionalProperties'), w, child(place.uncorrelatable));
  if (isObject(s.items)) {
    const listType = ext(s, 'list-type', prefix);
    const correlates = listType === 'map' || listType === 'set';
    walk(s.items, path.child('items'), w, child(place.uncorrelatable ?? (correlates ? undefined : path)));
  }
}
