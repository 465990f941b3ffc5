/**
 * A ValidatingAdmissionPolicy's expressions compiled once (per stored version of the policy) in the
 * policies' CEL environment: match conditions, variables, validations with their message expressions,
 * audit annotations. An expression that does not compile (a policy stored before a stricter check, or
 * one the create-time check let through) makes the policy a configuration error, which its
 * failurePolicy then decides, as Kubernetes' compiled validators do.
 */
import type { PolicySpec } from '../../registry/admissionregistration/policy-types.js';
import { expressionFacts } from '../../registry/apiextensions/customresource/cel-rules.js';
import { compileProgram, type CelProgram } from '../../runtime/cel.js';
import { kubernetesCelEnv } from '../../runtime/cel-kubernetes.js';

export interface CompiledExpression {
  expression: string;
  program: CelProgram;
  /** How deeply comprehensions nest (what its cost grows with). */
  comprehensionDepth: number;
}

export interface CompiledValidation extends CompiledExpression {
  message?: string;
  reason?: string;
  messageExpression?: CompiledExpression;
}

export interface CompiledPolicy {
  name: string;
  failurePolicy: 'Fail' | 'Ignore' | string;
  spec: PolicySpec;
  matchConditions: (CompiledExpression & { name: string })[];
  variables: (CompiledExpression & { name: string })[];
  validations: CompiledValidation[];
  auditAnnotations: (CompiledExpression & { key: string })[];
  /** Why the policy cannot run (an expression that does not compile). */
  configurationError?: string;
}

function compileOne(expression: string): CompiledExpression {
  const { program, ast } = compileProgram(expression, kubernetesCelEnv());
  return { expression, program, comprehensionDepth: expressionFacts(ast).comprehensionDepth };
}

export function compilePolicy(name: string, spec: PolicySpec | undefined): CompiledPolicy {
  const s = spec ?? {};
  const out: CompiledPolicy = {
    name,
    failurePolicy: s.failurePolicy ?? 'Fail',
    spec: s,
    matchConditions: [],
    variables: [],
    validations: [],
    auditAnnotations: [],
  };
  try {
    out.matchConditions = (s.matchConditions ?? []).map((c) => ({ ...compileOne(c.expression ?? ''), name: c.name ?? '' }));
    out.variables = (s.variables ?? []).map((v) => ({ ...compileOne(v.expression ?? ''), name: v.name ?? '' }));
    out.validations = (s.validations ?? []).map((v) => ({
      ...compileOne(v.expression ?? ''),
      message: v.message,
      reason: v.reason,
      messageExpression: v.messageExpression?.trim() ? compileOne(v.messageExpression) : undefined,
    }));
    out.auditAnnotations = (s.auditAnnotations ?? []).map((a) => ({ ...compileOne((a.valueExpression ?? '').trim()), key: a.key ?? '' }));
  } catch (err) {
    out.configurationError = `compilation error: ${err instanceof Error ? err.message : String(err)}`;
  }
  return out;
}
