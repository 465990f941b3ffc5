/**
 * The CRD-side checks of CEL validation rules, as Kubernetes runs them when a CRD is written: each rule
 * must compile, must not read oldSelf where values cannot be correlated (inside atomic lists), and its
 * estimated cost must stay within the per-rule budget. The estimate is the one that matters in practice:
 * each nested comprehension (all, exists, map, filter) multiplies by the most elements the node's lists
 * and maps may hold (maxItems / maxProperties, or as many as fit in a request when unbounded).
 */
import { forbidden, invalid, type FieldError, type FieldPath } from '../../../api/field-errors.js';
import { compileRule, PER_ELEMENT_COST } from '../customresource/cel-rules.js';
import { ext, isObject, type JsonSchemaProps } from './json-schema.js';
import { typeCheck } from './cel-type-check.js';
import { DYN, schemaCelType, type CelT } from './cel-types.js';

/** Kubernetes' StaticEstimatedCostLimit: the most one rule may be estimated to cost. */
export const PER_RULE_COST_LIMIT = 10_000_000;
/** Elements of an unbounded list or map: as many of the smallest (2-byte) items as fit in a 3 MiB request. */
const UNBOUNDED_ELEMENTS = Math.floor((3 * 1024 * 1024) / 2);

/** The most elements any list or map at or under a node may hold. */
function maxElements(s: JsonSchemaProps): number {
  let n = 1;
  if (s.type === 'array') n = typeof s.maxItems === 'number' ? s.maxItems : UNBOUNDED_ELEMENTS;
  if (s.type === 'object' && isObject(s.additionalProperties))
    n = typeof s.maxProperties === 'number' ? s.maxProperties : UNBOUNDED_ELEMENTS;
  const children = [
    ...(isObject(s.properties) ? Object.values(s.properties) : []),
    ...(isObject(s.items) ? [s.items] : []),
    ...(isObject(s.additionalProperties) ? [s.additionalProperties] : []),
  ].filter(isObject);
  return Math.max(n, ...children.map(maxElements));
}

function costMessage(cost: number): string {
  const factor = cost / PER_RULE_COST_LIMIT;
  const by = factor > 100 ? 'more than 100x' : `${factor.toFixed(1)}x`;
  return `estimated rule cost exceeds budget by factor of ${by} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

/**
 * The rule and its messageExpression type-checked with `self` and `oldSelf` of the node's type: the
 * rule must be a bool, the message a string, as Kubernetes refuses them.
 */
function checkRuleTypes(rule: Record<string, unknown>, self: CelT, at: FieldPath): FieldError[] {
  const vars = { self, oldSelf: self };
  const errors: FieldError[] = [];
  const checked = typeCheck(String(rule.rule), vars);
  if ('error' in checked) errors.push(invalid(at.child('rule'), rule.rule, `compilation failed: ${checked.error}`));
  else if (!['bool', 'dyn'].includes(checked.type.kind))
    errors.push(invalid(at.child('rule'), rule.rule, 'cel expression must evaluate to a bool'));
  if (typeof rule.messageExpression !== 'string' || rule.messageExpression.trim() === '') return errors;
  const message = typeCheck(rule.messageExpression, vars);
  const messageAt = at.child('messageExpression');
  if ('error' in message) errors.push(invalid(messageAt, rule.messageExpression, `messageExpression compilation failed: ${message.error}`));
  else if (!['string', 'dyn'].includes(message.type.kind))
    errors.push(invalid(messageAt, rule.messageExpression, 'messageExpression must evaluate to a string'));
  return errors;
}

/** Errors of the rules at and under a version's schema. */
export function validateCelRules(schema: JsonSchemaProps, path: FieldPath, prefix: string): FieldError[] {
  const errors: FieldError[] = [];
  walk(schema, path, prefix, undefined, errors, 0, true);
  return errors;
}

function walk(
  s: JsonSchemaProps,
  path: FieldPath,
  prefix: string,
  uncorrelatable: FieldPath | undefined,
  errors: FieldError[],
  depth: number,
  resourceRoot = false,
): void {
  if (depth > 64) return;
  const rules = ext(s, 'validations', prefix);
  if (Array.isArray(rules)) {
    const self = schemaCelType(s, prefix, resourceRoot || ext(s, 'embedded-resource', prefix) === true) ?? DYN;
    rules.forEach((rule, i) => {
      if (!isObject(rule) || typeof rule.rule !== 'string' || rule.rule.trim() === '') return;
      const at = path.child(`${prefix}validations`).index(i);
      const typeErrors = checkRuleTypes(rule, self, at);
      if (typeErrors.length) {
        errors.push(...typeErrors);
        return;
      }
      const compiled = compileRule(rule as { rule: string; messageExpression?: string });
      if ('error' in compiled) {
        errors.push(invalid(at.child('rule'), rule.rule, `compilation failed: ${compiled.error}`));
        return;
      }
      if (compiled.usesOldSelf && uncorrelatable) {
        errors.push(
          invalid(
            at.child('rule'),
            rule.rule,
            `oldSelf cannot be used on the uncorrelatable portion of the schema within ${uncorrelatable}`,
          ),
        );
      }
      const cost = PER_ELEMENT_COST * maxElements(s) ** compiled.comprehensionDepth;
      if (compiled.comprehensionDepth > 0 && cost > PER_RULE_COST_LIMIT) errors.push(forbidden(at.child('rule'), costMessage(cost)));
    });
  }
  if (isObject(s.properties)) {
    for (const [k, v] of Object.entries(s.properties))
      if (isObject(v)) walk(v, path.child('properties').key(k), prefix, uncorrelatable, errors, depth + 1);
  }
  if (isObject(s.additionalProperties))
    walk(s.additionalProperties, path.child('additionalProperties'), prefix, uncorrelatable, errors, depth + 1);
  if (isObject(s.items)) {
    const listType = ext(s, 'list-type', prefix);
    const correlates = listType === 'map' || listType === 'set';
    walk(s.items, path.child('items'), prefix, uncorrelatable ?? (correlates ? undefined : path), errors, depth + 1);
  }
}
