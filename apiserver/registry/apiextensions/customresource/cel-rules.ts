/**
 * CEL validation rules of a custom resource schema (the `validations` extension), evaluated as
 * Kubernetes does: at each schema node with rules, `self` is the value there and `oldSelf` the value at
 * the same place in the stored object, when it can be correlated (through properties, map keys and the
 * items of map and set lists); a rule that reads oldSelf (a transition rule) runs only on an update
 * where the old value exists. A failed rule is an error at the node's path with its message (or
 * messageExpression, or `failed rule: <rule>`), its reason choosing the error type.
 */
import type { Schema } from '../../../api/schema.js';
import { duplicate, forbidden, invalid, required, type FieldError } from '../../../api/field-errors.js';
import { compileProgram, type CelProgram } from '../../../runtime/cel.js';
import { hasCelFormats, withCelFormats } from './cel-formats.js';
import { ownProperty } from '../../../api/schema.js';
import { isPlainObject } from '../../../api/object.js';

type Rule = NonNullable<Schema['x-orch-validations']>[number];

export interface CompiledRule {
  rule: Rule;
  program: CelProgram;
  message?: CelProgram;
  /** Reads oldSelf: a transition rule. */
  usesOldSelf: boolean;
  /** How deeply comprehensions (all, exists, map, filter) nest. */
  comprehensionDepth: number;
}

/** Facts of a parsed expression that cost and transition checks need. */
export function expressionFacts(ast: unknown): { usesOldSelf: boolean; comprehensionDepth: number } {
  let usesOldSelf = false;
  const depth = (node: unknown): number => {
    if (typeof node !== 'object' || node === null) return 0;
    if (Array.isArray(node)) return Math.max(0, ...node.map(depth));
    const n = node as Record<string, unknown>;
    const kind = n.exprKind as { case?: string; value?: { name?: string } } | undefined;
    if (kind?.case === 'identExpr' && kind.value?.name === 'oldSelf') usesOldSelf = true;
    let max = 0;
    for (const [k, v] of Object.entries(n)) if (k !== '$typeName' && typeof v === 'object') max = Math.max(max, depth(v));
    return kind?.case === 'comprehensionExpr' ? max + 1 : max;
  };
  const comprehensionDepth = depth(ast);
  return { usesOldSelf, comprehensionDepth };
}

/** A rule compiled, or the reason it does not compile. */
export function compileRule(rule: Rule): CompiledRule | { error: string } {
  try {
    const { program, ast } = compileProgram(rule.rule);
    let message: CelProgram | undefined;
    if (rule.messageExpression) message = compileProgram(rule.messageExpression).program;
    return { rule, program, message, ...expressionFacts(ast) };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

/** Kubernetes' PerCallLimit: the most one rule evaluation may cost. */
export const PER_CALL_COST_LIMIT = 1_000_000;
/** Kubernetes' RuntimeCELCostBudget: the most all rules of one write may cost together. */
export const RUNTIME_COST_BUDGET = 10_000_000;
/** What one evaluation costs per element it visits (a comparison and a member access). */
export const PER_ELEMENT_COST = 3;

/** The most elements of any list or map in a value (what a comprehension over it may visit). */
function largestCollection(v: unknown, depth = 0): number {
  if (typeof v !== 'object' || v === null || depth > 64) return 1;
  const children = Array.isArray(v) ? v : Object.values(v);
  let n = children.length;
  for (const c of children) if (typeof c === 'object' && c !== null) n = Math.max(n, largestCollection(c, depth + 1));
  return Math.max(n, 1);
}

/**
 * The cost of evaluating a rule on a value, as a bound: each nested comprehension visits at most the
 * largest collection's elements.
 */
function evaluationCost(r: CompiledRule, value: unknown): number {
  return runtimeCost(r.comprehensionDepth, value);
}

/** The bound above for an expression whose comprehensions nest `comprehensionDepth` deep, over a value (admission policies use it too). */
export function runtimeCost(comprehensionDepth: number, value: unknown): number {
  return comprehensionDepth === 0 ? PER_ELEMENT_COST : PER_ELEMENT_COST * largestCollection(value) ** comprehensionDepth;
}

export interface CelValidator {
  /** Errors of the rules on a write; `old` is the stored object on an update. */
  validate(obj: unknown, old: unknown): FieldError[];
}

const TYPE_NAMES: Record<string, string> = {
  object: 'object',
  array: 'array',
  string: 'string',
  integer: 'integer',
  number: 'number',
  boolean: 'boolean',
};

function typeName(s: Schema): string {
  if (s['x-orch-int-or-string']) return 'string';
  return TYPE_NAMES[s.type ?? ''] ?? 'object';
}

/** The schema's rules compiled once, or undefined when it has none (or none that compile: the CRD's validation refused those). */
export function newCelValidator(schema: Schema): CelValidator | undefined {
  const compiled = new Map<Schema, CompiledRule[]>();
  /** Nodes with rules whose values hold strings CEL sees as timestamps, durations or bytes. */
  const formatted = new Set<Schema>();
  const collect = (s: Schema) => {
    const rules = (s['x-orch-validations'] ?? []).map(compileRule).filter((r): r is CompiledRule => !('error' in r));
    if (rules.length) compiled.set(s, rules);
    if (rules.length && hasCelFormats(s)) formatted.add(s);
    for (const child of Object.values(s.properties ?? {})) collect(child);
    if (s.items) collect(s.items);
    if (typeof s.additionalProperties === 'object') collect(s.additionalProperties);
  };
  collect(schema);
  if (compiled.size === 0) return undefined;
  const hasRules = (s: Schema): boolean =>
    compiled.has(s) ||
    Object.values(s.properties ?? {}).some(hasRules) ||
    (!!s.items && hasRules(s.items)) ||
    (typeof s.additionalProperties === 'object' && hasRules(s.additionalProperties));
  const withRules = new Set<Schema>();
  const mark = (s: Schema) => {
    if (hasRules(s)) withRules.add(s);
    for (const child of Object.values(s.properties ?? {})) mark(child);
    if (s.items) mark(s.items);
    if (typeof s.additionalProperties === 'object') mark(s.additionalProperties);
  };
  mark(schema);

  const run = (value: unknown, old: unknown, s: Schema, path: string, errors: FieldError[], budget: { left: number }) => {
    if (value === undefined || value === null || !withRules.has(s) || budget.left < 0) return;
    const rules = compiled.get(s) ?? [];
    const self = rules.length && formatted.has(s) ? withCelFormats(value, s) : value;
    const oldSelf = rules.length && formatted.has(s) ? withCelFormats(old, s) : old;
    for (const r of rules) {
      if (r.usesOldSelf && old === undefined) continue;
      const cost = evaluationCost(r, value);
      if (cost > PER_CALL_COST_LIMIT) {
        const detail = `'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleErrorString(r)}`;
        errors.push(invalid(path, typeName(s), detail));
        budget.left = -1;
        return;
      }
      budget.left -= cost;
      if (budget.left < 0) {
        errors.push(
          invalid(path, typeName(s), 'validation failed due to running out of cost budget, no further validation rules will be run'),
        );
        return;
      }
      const out = r.program(r.usesOldSelf ? { self, oldSelf } : { self });
      if (out === true) continue;
      errors.push(ruleError(r, out, self, oldSelf, path, typeName(s)));
    }
    if (Array.isArray(value)) {
      if (!s.items) return;
      value.forEach((item, i) => run(item, correlatedItem(item, old, s), s.items!, `${path}[${i}]`, errors, budget));
      return;
    }
    if (typeof value !== 'object') return;
    const obj = value as Record<string, unknown>;
    const oldObj = isPlainObject(old) ? old : undefined;
    for (const [key, child] of Object.entries(obj)) {
      const childSchema =
        ownProperty(s.properties, key) ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
      if (!childSchema) continue;
      const childPath = s.properties ? (path ? `${path}.${key}` : key) : `${path}[${key}]`;
      run(child, oldObj?.[key], childSchema, childPath, errors, budget);
    }
  };
  return {
    validate(obj, old) {
      const errors: FieldError[] = [];
      run(obj, old, schema, '', errors, { left: RUNTIME_COST_BUDGET });
      return errors;
    },
  };
}

/** The old item an array item correlates with: by key in a map list, by value in a set, else none. */
function correlatedItem(item: unknown, old: unknown, s: Schema): unknown {
  if (!Array.isArray(old)) return undefined;
  const listType = s['x-orch-list-type'];
  if (listType === 'set') return old.find((o) => JSON.stringify(o) === JSON.stringify(item));
  if (listType !== 'map' || typeof item !== 'object' || item === null) return undefined;
  const keys = s['x-orch-list-map-keys'] ?? [];
  const key = (o: unknown) => JSON.stringify(keys.map((k) => (o as Record<string, unknown> | null)?.[k]));
  const want = key(item);
  return old.find((o) => typeof o === 'object' && o !== null && key(o) === want);
}

/** How Kubernetes names a rule in its errors: by its message when it has one. */
function ruleErrorString(r: CompiledRule): string {
  return (r.rule.message || r.rule.rule).trim();
}

/** An evaluation error as Kubernetes reports it, with cel-go's wording for @bufbuild/cel's errors. */
function evaluationError(message: string, r: CompiledRule): string {
  if (message.startsWith('found no matching overload'))
    return `'no such overload': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(r)}`;
  const celGo = message.replace(/^field not found: /, 'no such key: ').replace(/^int divide by zero$/, 'division by zero');
  return `${celGo} evaluating rule: ${ruleErrorString(r)}`;
}

function ruleError(r: CompiledRule, out: unknown, value: unknown, old: unknown, path: string, type: string): FieldError {
  if (out instanceof Error) return invalid(path, type, evaluationError(out.message, r));
  if (typeof out !== 'boolean') return invalid(path, type, `rule did not evaluate to a bool evaluating rule: ${ruleErrorString(r)}`);
  const field = `${path}${r.rule.fieldPath ?? ''}`;
  let message = r.rule.message ?? `failed rule: ${r.rule.rule}`;
  if (r.message) {
    const m = r.message(r.usesOldSelf ? { self: value, oldSelf: old } : { self: value });
    if (typeof m === 'string' && m.trim() !== '') message = m;
  }
  switch (r.rule.reason) {
    case 'FieldValueForbidden':
      return forbidden(field, message);
    case 'FieldValueRequired':
      return required(field, message);
    case 'FieldValueDuplicate':
      return { ...duplicate(field, type), detail: message };
    default:
      return invalid(field, type, message);
  }
}
