/**
 * One policy evaluated for one binding and one param, as Kubernetes' validator does: match conditions
 * (false: the policy does not apply; an error: failurePolicy), variables, every validation (false:
 * a denial with its messageExpression, message or `failed expression: …`, and its reason; an error:
 * failurePolicy), then the audit annotations (a string, or null to leave it out). Cost: each
 * expression's bound (comprehensions times the largest collection it may visit, as for CRD rules) must
 * stay within the per-call limit, and all of them within the request's budget. `authorizer` and
 * `authorizerRequestResource` answer through evaluatePolicyAuthorized.
 */
import type { ApiObject } from '../../api/object.js';
import { PER_CALL_COST_LIMIT, RUNTIME_COST_BUDGET, runtimeCost } from '../../registry/apiextensions/customresource/cel-rules.js';
import type { Authorizer } from '../../authorization/interfaces.js';
import {
  type AuthorizerAnswer,
  type AuthorizerCheck,
  authorizerValue,
  requestResourceValue,
  withAuthorizerContext,
} from '../../runtime/cel-kubernetes-authz.js';
import type { AdmissionAttributes } from '../interfaces.js';
import type { CompiledExpression, CompiledPolicy } from './compiled-policy.js';
import type { Matched } from './match-resources.js';

export interface Decision {
  /** Deny: a failed validation, or an error under failurePolicy Fail. */
  action: 'admit' | 'deny';
  /** Whether the decision comes from an evaluation error. */
  error: boolean;
  message: string;
  reason?: string;
  /** The validation's index (for the audit annotation of a failure). */
  index: number;
}

export interface AuditValue {
  key: string;
  value: string;
}

export interface PolicyResult {
  /** The match conditions said no: the policy does not apply. */
  skipped: boolean;
  decisions: Decision[];
  auditAnnotations: AuditValue[];
}

/** The `request` variable (Kubernetes' CreateAdmissionRequest) for the resource the write matched as. */
function requestOf(a: AdmissionAttributes, m: Matched): Record<string, unknown> {
  return {
    kind: { group: m.target.group, version: m.target.version, kind: m.kind },
    resource: { group: m.target.group, version: m.target.version, resource: m.target.resource },
    subResource: m.target.subresource,
    requestKind: { group: a.resource.group, version: a.resource.version, kind: a.resource.kind },
    requestResource: { group: a.resource.group, version: a.resource.version, resource: a.resource.plural },
    requestSubResource: a.subresource,
    name: a.name,
    namespace: a.namespace,
    operation: a.operation,
    userInfo: { username: a.user.name, uid: a.user.uid ?? '', groups: a.user.groups ?? [], extra: a.user.extra ?? {} },
    dryRun: a.dryRun,
    options: a.options ?? null,
  };
}

export interface EvaluationInput {
  attributes: AdmissionAttributes;
  matched: Matched;
  params: ApiObject | null;
  namespaceObject: ApiObject | null;
}

class BudgetExceeded extends Error {}

export function evaluatePolicy(policy: CompiledPolicy, input: EvaluationInput): PolicyResult {
  const { attributes: a, matched } = input;
  const object = a.object ? matched.convert(a.object) : null;
  const oldObject = a.oldObject ? matched.convert(a.oldObject) : null;
  const variables: Record<string, unknown> = {};
  const vars: Record<string, unknown> = {
    object,
    oldObject,
    request: requestOf(a, matched),
    params: input.params,
    namespaceObject: input.namespaceObject,
    variables,
    authorizer: authorizerValue(),
    authorizerRequestResource: requestResourceValue({
      group: matched.target.group,
      resource: matched.target.resource,
      subresource: matched.target.subresource,
      namespace: a.namespace,
      name: a.name,
    }),
  };
  const failed = (message: string): PolicyResult => ({
    skipped: false,
    decisions: [{ action: policy.failurePolicy === 'Ignore' ? 'admit' : 'deny', error: true, message, index: 0 }],
    auditAnnotations: [],
  });
  let budget = RUNTIME_COST_BUDGET;
  const sized = [object, oldObject, input.params];
  /** Runs one expression within the limits: its value, or an Error (a per-call limit is one); throws when the budget is spent. */
  const run = (e: CompiledExpression): unknown => {
    const cost = Math.max(...sized.map((v) => runtimeCost(e.comprehensionDepth, v)));
    if (cost > PER_CALL_COST_LIMIT) return new Error('operation cancelled: actual cost limit exceeded');
    budget -= cost;
    if (budget < 0)
      throw new BudgetExceeded('validation failed due to running out of cost budget, no further validation rules will be run');
    return e.program(vars);
  };
  try {
    for (const c of policy.matchConditions) {
      const out = run(c);
      if (out instanceof Error || typeof out !== 'boolean')
        return failed(`failed to evaluate match condition ${JSON.stringify(c.name)}: ${out instanceof Error ? out.message : 'not a bool'}`);
      if (!out) return { skipped: true, decisions: [], auditAnnotations: [] };
    }
    for (const v of policy.variables) {
      const out = run(v);
      if (!(out instanceof Error)) variables[v.name] = out;
    }
    const decisions = policy.validations.map((v, index): Decision => {
      const out = run(v);
      if (out instanceof Error || typeof out !== 'boolean') {
        const why = out instanceof Error ? out.message : 'no such overload';
        return {
          action: policy.failurePolicy === 'Ignore' ? 'admit' : 'deny',
          error: true,
          message: `expression '${v.expression}' resulted in error: ${why}`,
          index,
        };
      }
      if (out) return { action: 'admit', error: false, message: '', index };
      return { action: 'deny', error: false, message: failureMessage(v, run), reason: v.reason ?? 'Invalid', index };
    });
    const auditAnnotations: AuditValue[] = [];
    for (const an of policy.auditAnnotations) {
      const out = run(an);
      if (out === null) continue;
      if (out instanceof Error || typeof out !== 'string') {
        const message =
          out instanceof Error
            ? `expression '${an.expression}' resulted in error: ${out.message}`
            : `valueExpression '${an.expression}' resulted in unsupported return type: ${typeof out}. Return type must be either string or null.`;
        if (policy.failurePolicy !== 'Ignore') decisions.push({ action: 'deny', error: true, message, index: decisions.length });
        continue;
      }
      if (out.trim()) auditAnnotations.push({ key: an.key, value: out.trim() });
    }
    return { skipped: false, decisions, auditAnnotations };
  } catch (err) {
    if (err instanceof BudgetExceeded) return failed(err.message);
    throw err;
  }
}

/** Kubernetes' maximum size of an evaluated messageExpression. */
const MAX_MESSAGE_BYTES = 5 * 1024;

/** A failed validation's message: its messageExpression's one-line string, else its message, else the expression. */
function failureMessage(v: CompiledPolicy['validations'][number], run: (e: CompiledExpression) => unknown): string {
  if (v.messageExpression) {
    const out = run(v.messageExpression);
    if (typeof out === 'string') {
      const m = out.trim();
      if (m && Buffer.byteLength(m) <= MAX_MESSAGE_BYTES && !m.includes('\n')) return m;
    }
  }
  if (v.message?.trim()) return v.message.trim();
  return `failed expression: ${v.expression.trim()}`;
}

/** How many times an evaluation runs again for the authorizer checks it asked for (each round may ask for more). */
const AUTHORIZER_ROUNDS = 3;

/** The authorizer's answer to a check, for the request's user or the service account the check names. */
async function authorize(authorizer: Authorizer, a: AdmissionAttributes, c: AuthorizerCheck): Promise<AuthorizerAnswer> {
  const sa = c.serviceAccount;
  const user = sa
    ? {
        name: `system:serviceaccount:${sa.namespace}:${sa.name}`,
        groups: ['system:serviceaccounts', `system:serviceaccounts:${sa.namespace}`, 'system:authenticated'],
      }
    : a.user;
  try {
    const r = await authorizer.authorize({
      user,
      verb: c.verb ?? '',
      resourceRequest: c.path === undefined,
      apiGroup: c.group ?? '',
      apiVersion: '*',
      resource: c.resource ?? '',
      subresource: c.subresource ?? '',
      namespace: c.namespace ?? '',
      name: c.name ?? '',
      path: c.path ?? '',
    });
    return { allowed: r.decision === 'Allow', reason: r.reason, error: '' };
  } catch (err) {
    return { allowed: false, reason: '', error: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * evaluatePolicy with the `authorizer` variable answering: an evaluation that asked for checks it had
 * no answer to runs again once they are authorized (answers are kept for the request: Kubernetes'
 * caching authorizer).
 */
export async function evaluatePolicyAuthorized(
  policy: CompiledPolicy,
  input: EvaluationInput,
  authorizer: Authorizer,
  answers: Map<string, AuthorizerAnswer> = new Map(),
): Promise<PolicyResult> {
  for (let round = 0; ; round++) {
    const pending = new Set<string>();
    const result = withAuthorizerContext({ answers, pending }, () => evaluatePolicy(policy, input));
    if (pending.size === 0 || round === AUTHORIZER_ROUNDS) return result;
    await Promise.all(
      [...pending].map(async (key) => answers.set(key, await authorize(authorizer, input.attributes, JSON.parse(key) as AuthorizerCheck))),
    );
  }
}
