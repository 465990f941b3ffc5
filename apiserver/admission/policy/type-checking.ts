/**
 * A policy's validations type-checked against the schemas of the kinds its matchConstraints name (as
 * Kubernetes' policy status controller does): each rule naming groups, versions and resources without
 * wildcards gives kinds (at most 10); every validation's expression and messageExpression is checked
 * with `object` and `oldObject` of each kind's type, and what does not check becomes an
 * ExpressionWarning for `status.typeChecking` (`<group/version>, Kind=<kind>: ERROR: …`).
 */
import type { ResourceDef } from '../../api/resource.js';
import { type Definitions, resolveSchema, type Schema } from '../../api/schema.js';
import type { PolicySpec } from '../../registry/admissionregistration/policy-types.js';
import { policyCelVariables } from '../../registry/admissionregistration/policy-validation.js';
import { typeCheck } from '../../registry/shared/cel-schema/cel-type-check.js';
import { type CelT, schemaCelType } from '../../registry/shared/cel-schema/cel-types.js';
import { kubernetesCelEnv } from '../../runtime/cel-kubernetes.js';

export interface ExpressionWarning {
  fieldRef: string;
  warning: string;
}

/** Kubernetes' maxTypesToCheck. */
const MAX_TYPES = 10;
const PREFIX = 'x-orch-';

/**
 * A schema with its references inlined, as the CRD type mapping reads one; a free-form object (no
 * properties, no additionalProperties: RawExtension, FieldsV1) is dyn, as Kubernetes types fields it
 * keeps unknown.
 */
function inline(s: Schema, defs: Definitions, depth: number): Record<string, unknown> {
  const r = resolveSchema(s, defs) as Schema & Record<string, unknown>;
  if (depth > 24) return { [`${PREFIX}int-or-string`]: true };
  const out: Record<string, unknown> = { ...r };
  delete out.$ref;
  if (r.type === 'object' && !r.properties && r.additionalProperties === undefined) return { [`${PREFIX}int-or-string`]: true };
  if (r.type === 'string' && r.format === 'quantity') return { [`${PREFIX}int-or-string`]: true };
  if (r.properties) out.properties = Object.fromEntries(Object.entries(r.properties).map(([k, v]) => [k, inline(v, defs, depth + 1)]));
  if (r.items) out.items = inline(r.items, defs, depth + 1);
  if (typeof r.additionalProperties === 'object') out.additionalProperties = inline(r.additionalProperties, defs, depth + 1);
  return out;
}

/** The kinds the policy's rules name, each with its object type. */
function typesToCheck(
  spec: PolicySpec,
  resourceFor: (group: string, version: string, plural: string) => ResourceDef | undefined,
  defs: Definitions,
): { gvk: string; type: CelT }[] {
  const out = new Map<string, CelT>();
  for (const rule of spec.matchConstraints?.resourceRules ?? []) {
    const lists = [rule.apiGroups ?? [], rule.apiVersions ?? [], rule.resources ?? []];
    if (lists.some((l) => l.length === 0 || l.some((x) => x.includes('*')))) continue;
    const [groups, versions, resources] = lists.map((l) => [...l].sort());
    for (const g of groups)
      for (const v of versions)
        for (const res of resources) {
          if (out.size >= MAX_TYPES) break;
          const def = resourceFor(g, v, res.split('/')[0]);
          if (!def) continue;
          // Go's GroupVersionKind.String(): the core group is an empty string before the slash.
          const gvk = `${def.group}/${def.version}, Kind=${def.kind}`;
          if (out.has(gvk)) continue;
          const type = schemaCelType(inline(def.schemaRef, defs, 0), PREFIX, true);
          if (type) out.set(gvk, type);
        }
  }
  return [...out.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([gvk, type]) => ({ gvk, type }));
}

export function typeCheckPolicy(
  spec: PolicySpec,
  resourceFor: (group: string, version: string, plural: string) => ResourceDef | undefined,
  defs: Definitions,
): ExpressionWarning[] {
  const types = typesToCheck(spec, resourceFor, defs);
  if (types.length === 0) return [];
  const hasParams = !!spec.paramKind;
  const check = (expression: string, hasAuthorizer: boolean): string | undefined => {
    const issues = types.flatMap(({ gvk, type }) => {
      const vars = { ...policyCelVariables(hasParams, hasAuthorizer), object: type, oldObject: type };
      const r = typeCheck(expression, vars, kubernetesCelEnv());
      return 'error' in r ? [`${gvk}: ${r.error}\n`] : [];
    });
    return issues.length ? issues.join('\n') : undefined;
  };
  const warnings: ExpressionWarning[] = [];
  (spec.validations ?? []).forEach((v, i) => {
    const at = `spec.validations[${i}]`;
    const e = v.expression ? check(v.expression, true) : undefined;
    if (e) warnings.push({ fieldRef: `${at}.expression`, warning: e });
    const m = v.messageExpression?.trim() ? check(v.messageExpression, false) : undefined;
    if (m) warnings.push({ fieldRef: `${at}.messageExpression`, warning: m });
  });
  return warnings;
}
