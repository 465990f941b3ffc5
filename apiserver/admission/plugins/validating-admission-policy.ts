/**
 * ValidatingAdmissionPolicy: every policy whose matchConstraints the write is in, through each of its
 * bindings whose matchResources it is in, once per param the binding gives (policy/params.ts),
 * evaluated in CEL (policy/evaluate.ts). A failed validation acts as the binding's validationActions
 * say: Deny refuses the write (the first denial in policy and binding order, with its reason and code),
 * Warn sends a `Warning: 299`, Audit records a validation_failure audit annotation. A policy or binding
 * that cannot run (an expression that does not compile, a missing param with Deny, an unknown
 * paramKind) refuses the write under failurePolicy Fail and is skipped under Ignore. Audit annotations
 * are recorded under `<policy>/<key>`.
 */
import type { ApiObject } from '../../api/object.js';
import type * as status from '../../api/status.js';
import { admissionForbidden } from '../errors.js';
import type { AdmissionAttributes, PluginFactory, ValidatingPlugin } from '../interfaces.js';
import { NAMESPACES, isResource } from '../resources.js';
import type { AuthorizerAnswer } from '../../runtime/cel-kubernetes-authz.js';
import type { CompiledPolicy } from '../policy/compiled-policy.js';
import { evaluatePolicyAuthorized } from '../policy/evaluate.js';
import { type Matched, matchResources } from '../policy/match-resources.js';
import { collectParams } from '../policy/params.js';
import { type Binding, newPolicySource } from '../policy/policy-source.js';

interface Denial {
  policy: string;
  binding?: string;
  message: string;
  reason?: string;
}

const REASON_CODES: Record<string, number> = { Forbidden: 403, Unauthorized: 401, RequestEntityTooLarge: 413, Invalid: 422 };

/** The annotation Kubernetes records for a failed validation under the Audit action (its group under the domain). */
const VALIDATION_FAILURE_GROUP = 'validation.policy.admission.k8s.io';
/** Kubernetes' maximum length of a policy's audit annotation value. */
const MAX_AUDIT_VALUE_LENGTH = 10 * 1024;

/** The Status Kubernetes answers for the first denial: Forbidden's wording, the validation's reason and code. */
function denialError(a: AdmissionAttributes, d: Denial): status.ApiError {
  const message = d.binding
    ? `ValidatingAdmissionPolicy '${d.policy}' with binding '${d.binding}' denied request: ${d.message}`
    : `ValidatingAdmissionPolicy '${d.policy}' denied request: ${d.message}`;
  const e = admissionForbidden(a, message);
  const reason = d.reason || 'Invalid';
  const s = e.status;
  s.reason = reason as status.StatusReason;
  s.code = REASON_CODES[reason] ?? 422;
  s.details = { ...(s.details ?? {}), causes: [...(s.details?.causes ?? []), { message }] };
  return e;
}

export const newValidatingAdmissionPolicy: PluginFactory = (env): ValidatingPlugin => {
  const source = newPolicySource(env);
  const validationFailure = `${env.domain.group(VALIDATION_FAILURE_GROUP)}/validation_failure`;

  /** The namespace's labels and object for selectors and `namespaceObject` (none for cluster-scoped objects and Namespaces). */
  async function namespaceOf(a: AdmissionAttributes): Promise<{ labels?: Record<string, string>; object: ApiObject | null }> {
    if (isResource(a.resource, NAMESPACES))
      return { labels: a.object?.metadata.labels ?? a.oldObject?.metadata.labels ?? {}, object: null };
    if (!a.resource.namespaced || !a.namespace) return { object: null };
    const ns = await env.reader.get(NAMESPACES, '', a.namespace, { cached: true });
    if (!ns) return { labels: {}, object: null };
    const { managedFields: _, ...metadata } = ns.metadata;
    return { labels: ns.metadata.labels ?? {}, object: { ...ns, metadata } };
  }

  async function runBinding(
    policy: CompiledPolicy,
    binding: Binding,
    matched: Matched,
    a: AdmissionAttributes,
    ns: { labels?: Record<string, string>; object: ApiObject | null },
    denials: Denial[],
    annotations: Map<string, string[]>,
    answers: Map<string, AuthorizerAnswer>,
  ): Promise<void> {
    const configError = (message: string) => {
      if (policy.failurePolicy === 'Ignore') return;
      denials.push({ policy: policy.name, binding: binding.name, message: `failed to configure binding: ${message}` });
    };
    if (binding.spec.matchResources && !matchResources(env, binding.spec.matchResources, a, ns.labels)) return;
    const params = await collectParams(env, policy.spec.paramKind, binding.spec.paramRef, a.namespace);
    if (params instanceof Error) return configError(params.message);
    const actions = binding.spec.validationActions ?? [];
    for (const param of params) {
      const result = await evaluatePolicyAuthorized(
        policy,
        { attributes: a, matched, params: param, namespaceObject: ns.object },
        env.authorizer,
        answers,
      );
      for (const d of result.decisions) {
        if (d.action !== 'deny') continue;
        if (actions.includes('Deny')) denials.push({ policy: policy.name, binding: binding.name, message: d.message, reason: d.reason });
        if (actions.includes('Warn'))
          a.warnings.push(`Validation failed for ValidatingAdmissionPolicy '${policy.name}' with binding '${binding.name}': ${d.message}`);
        if (actions.includes('Audit') && a.auditAnnotations) {
          const value = [
            { message: d.message, policy: policy.name, binding: binding.name, expressionIndex: d.index, validationActions: actions },
          ];
          a.auditAnnotations[validationFailure] = JSON.stringify(value);
        }
      }
      for (const { key, value } of result.auditAnnotations) {
        const values = annotations.get(key) ?? [];
        const v = value.slice(0, MAX_AUDIT_VALUE_LENGTH);
        if (!values.includes(v)) values.push(v);
        annotations.set(key, values);
      }
    }
  }

  return {
    name: 'ValidatingAdmissionPolicy',
    handles: () => true,
    async validate(attributes) {
      const a = attributes;
      const active = await source.current();
      if (active.length === 0) return;
      const denials: Denial[] = [];
      // The authorizer's answers, kept for the request.
      const answers = new Map<string, AuthorizerAnswer>();
      let ns: { labels?: Record<string, string>; object: ApiObject | null } | undefined;
      for (const { policy, bindings } of active) {
        if (bindings.length === 0) continue;
        ns ??= await namespaceOf(a);
        const matched = matchResources(env, policy.spec.matchConstraints ?? {}, a, ns.labels);
        if (!matched) continue;
        if (policy.configurationError) {
          if (policy.failurePolicy !== 'Ignore')
            denials.push({ policy: policy.name, message: `failed to configure policy: ${policy.configurationError}` });
          continue;
        }
        const annotations = new Map<string, string[]>();
        for (const b of bindings) await runBinding(policy, b, matched, a, ns, denials, annotations, answers);
        if (a.auditAnnotations) for (const [key, values] of annotations) a.auditAnnotations[`${policy.name}/${key}`] = values.join(', ');
      }
      if (denials.length) throw denialError(a, denials[0]);
    },
  };
};
