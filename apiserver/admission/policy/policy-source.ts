/**
 * The policies and their bindings, kept current by watches on both (as Kubernetes' informers feed its
 * policy controller): a change marks the set stale and the next request reads both lists again, so a
 * policy or binding acts on the first request after it is stored. Each policy is compiled once per resourceVersion; bindings are grouped under the
 * policy they name (a binding of a missing policy does nothing). Policies run in name order, their
 * bindings in name order. A policy whose status has not seen its generation gets its type checking
 * written to status (observedGeneration, typeChecking.expressionWarnings), as Kubernetes' policy
 * status controller writes it; that write is in the background and a conflict leaves it to another.
 */
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '../../api/generated/types.js';
import { type ApiObject, asKind } from '../../api/object.js';
import type { BindingSpec } from '../../registry/admissionregistration/policy-types.js';
import { staleOnChange } from '../stale-on-change.js';
import type { PluginEnv } from '../interfaces.js';
import { VALIDATING_ADMISSION_POLICIES, VALIDATING_ADMISSION_POLICY_BINDINGS } from '../resources.js';
import { compilePolicy, type CompiledPolicy } from './compiled-policy.js';
import { typeCheckPolicy } from './type-checking.js';

export interface Binding {
  name: string;
  spec: BindingSpec;
}

export interface ActivePolicy {
  policy: CompiledPolicy;
  bindings: Binding[];
}

export interface PolicySource {
  current(): Promise<ActivePolicy[]>;
}

const byName = (x: ApiObject, y: ApiObject) => ((x.metadata.name ?? '') < (y.metadata.name ?? '') ? -1 : 1);

export function newPolicySource(env: PluginEnv): PolicySource {
  const compiled = new Map<string, { resourceVersion: string; policy: CompiledPolicy }>();
  // load (below) is read at the first current(), once everything here is defined.
  const policies = staleOnChange(() => load());
  let reloading = false;
  const changed = () => {
    policies.changed();
    // Read again soon even without a request, so a new policy's status is written.
    if (reloading) return;
    reloading = true;
    setTimeout(() => {
      reloading = false;
      policies.current().catch(() => {});
    }, 50).unref();
  };
  env.watch(VALIDATING_ADMISSION_POLICIES, changed);
  env.watch(VALIDATING_ADMISSION_POLICY_BINDINGS, changed);

  const compiledOf = (p: ApiObject): CompiledPolicy => {
    const name = p.metadata.name ?? '';
    const rv = p.metadata.resourceVersion ?? '';
    const hit = compiled.get(name);
    if (hit && hit.resourceVersion === rv) return hit.policy;
    const policy = compilePolicy(name, asKind<ValidatingAdmissionPolicy>(p).spec);
    compiled.set(name, { resourceVersion: rv, policy });
    return policy;
  };

  /** Generations whose status was written (or is being), by policy name. */
  const checkedGeneration = new Map<string, number>();
  const writeStatus = (p: ApiObject) => {
    const { resourceFor } = env;
    const name = p.metadata.name ?? '';
    const generation = p.metadata.generation ?? 0;
    const observed = asKind<ValidatingAdmissionPolicy>(p).status?.observedGeneration;
    if (!resourceFor || observed === generation || checkedGeneration.get(name) === generation) return;
    checkedGeneration.set(name, generation);
    let expressionWarnings: ReturnType<typeof typeCheckPolicy>;
    try {
      expressionWarnings = typeCheckPolicy(asKind<ValidatingAdmissionPolicy>(p).spec ?? {}, resourceFor, env.definitions);
    } catch {
      expressionWarnings = [];
    }
    const status = { observedGeneration: generation, typeChecking: expressionWarnings.length ? { expressionWarnings } : {} };
    env.writer.replace(VALIDATING_ADMISSION_POLICIES, '', { ...p, status }, 'status').catch(() => {
      if (checkedGeneration.get(name) === generation) checkedGeneration.delete(name);
    });
  };

  const load = async (): Promise<ActivePolicy[]> => {
    const [policies, bindings] = await Promise.all([
      env.reader.list(VALIDATING_ADMISSION_POLICIES, ''),
      env.reader.list(VALIDATING_ADMISSION_POLICY_BINDINGS, ''),
    ]);
    policies.sort(byName);
    bindings.sort(byName);
    const names = new Set(policies.map((p) => p.metadata.name ?? ''));
    for (const name of compiled.keys()) if (!names.has(name)) compiled.delete(name);
    for (const name of checkedGeneration.keys()) if (!names.has(name)) checkedGeneration.delete(name);
    for (const p of policies) writeStatus(p);
    return policies.map((p) => ({
      policy: compiledOf(p),
      bindings: bindings
        .filter((b) => asKind<ValidatingAdmissionPolicyBinding>(b).spec?.policyName === p.metadata.name)
        .map((b) => ({ name: b.metadata.name ?? '', spec: asKind<ValidatingAdmissionPolicyBinding>(b).spec ?? {} })),
    }));
  };

  return { current: () => policies.current() };
}
