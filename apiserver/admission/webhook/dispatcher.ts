/**
 * Calling the webhooks a write matches: mutating ones one after another (JSONPatch answers applied,
 * reinvocationPolicy IfNeeded honoured once), validating ones all at once. failurePolicy decides what
 * a webhook that cannot be reached or answers wrongly does (Fail: the request fails with why; Ignore:
 * it is skipped); a webhook that says no stops the request with its code and message; warnings go to
 * the client; a dry run refuses webhooks with side effects; metrics count rejections and latency.
 */
import type { ApiObject } from '../../api/object.js';
import { deepCopy, isPlainObject, jsonEqual } from '../../api/object.js';
import { checkAgainstSchema } from '../../api/schema-check.js';
import * as status from '../../api/status.js';
import { applyJsonPatch } from '../../patch/json-patch.js';
import { evaluateCondition } from '../../runtime/cel.js';
import type { AdmissionAttributes, PluginEnv } from '../interfaces.js';
import { NAMESPACES } from '../resources.js';
import { postReview } from './call.js';
import { webhookTarget } from './client-target.js';
import type { CredentialsFor } from './credentials.js';
import type { Hook } from './hook-source.js';
import { namespaceSelectorMatches, objectSelectorMatches, rulesMatch, type Target, targetOf } from './matching.js';
import { buildReview, pickVersion, readResponse, type ReviewResponse } from './review.js';
import { messageOf } from '../../api/thrown.js';

type Kind = 'admit' | 'validating';

/** A webhook this write goes to, with the resource it matched as and the conversion to it. */
interface Match {
  hook: Hook;
  target: Target;
  kind: string;
  convert(obj: ApiObject): ApiObject;
  convertBack(obj: ApiObject): ApiObject;
}

const same = (o: ApiObject) => o;

/** Failures of calling a webhook (as opposed to its refusal). */
class CallFailure extends Error {}

export function newDispatcher(env: PluginEnv, kind: Kind, credentialsFor: CredentialsFor = () => undefined) {
  const { domain, reader, metrics } = env;

  async function namespaceLabels(a: AdmissionAttributes): Promise<Record<string, string> | undefined> {
    if (a.resource.kubernetesGroup === '' && a.resource.plural === 'namespaces')
      return a.object?.metadata.labels ?? a.oldObject?.metadata.labels ?? {};
    if (!a.resource.namespaced || !a.namespace) return undefined;
    return (await reader.get(NAMESPACES, '', a.namespace))?.metadata.labels ?? {};
  }

  function matchOf(hook: Hook, a: AdmissionAttributes): Match | undefined {
    const own = targetOf(a.resource, a.subresource);
    if (rulesMatch(hook.hook, a.operation, own)) return { hook, target: own, kind: a.resource.kind, convert: same, convertBack: same };
    if (hook.hook.matchPolicy === 'Exact') return undefined;
    for (const eq of env.equivalents(a.resource)) {
      const t = targetOf(eq.def, a.subresource);
      if (rulesMatch(hook.hook, a.operation, t))
        return { hook, target: t, kind: eq.def.kind, convert: eq.convert, convertBack: eq.convertBack };
    }
    return undefined;
  }

  /** The webhooks the write goes to, selectors and match conditions applied. */
  async function matching(hooks: Hook[], a: AdmissionAttributes): Promise<Match[]> {
    const out: Match[] = [];
    let labels: Record<string, string> | undefined | null = null;
    for (const h of hooks) {
      const m = matchOf(h, a);
      if (!m) continue;
      if (labels === null) labels = await namespaceLabels(a);
      if (!namespaceSelectorMatches(h.hook, labels) || !objectSelectorMatches(h.hook, a)) continue;
      if (!conditionsMatch(m, a)) continue;
      out.push(m);
    }
    return out;
  }

  function conditionsMatch(m: Match, a: AdmissionAttributes): boolean {
    const conditions = m.hook.hook.matchConditions ?? [];
    if (conditions.length === 0) return true;
    const vars = {
      object: a.object ? m.convert(a.object) : null,
      oldObject: a.oldObject ? m.convert(a.oldObject) : null,
      request: {
        operation: a.operation,
        name: a.name,
        namespace: a.namespace,
        subResource: a.subresource,
        resource: { group: m.target.group, version: m.target.version, resource: m.target.resource },
        userInfo: { username: a.user.name, uid: a.user.uid ?? '', groups: a.user.groups },
        dryRun: a.dryRun,
      },
    };
    for (const c of conditions) {
      const r = evaluateCondition(c.expression ?? '', vars);
      if (r instanceof Error) {
        if (m.hook.hook.failurePolicy === 'Ignore') return false;
        throw status.internal(
          new Error(
            `failed calling webhook ${JSON.stringify(m.hook.hook.name)}: failed to evaluate match condition ${JSON.stringify(c.name)}: ${r.message}`,
          ),
        );
      }
      if (!r) return false;
    }
    return true;
  }

  /** Calls one webhook; its response, or a CallFailure. */
  async function call(m: Match, a: AdmissionAttributes, object: ApiObject | undefined): Promise<ReviewResponse> {
    const hook = m.hook.hook;
    const version = pickVersion(hook.admissionReviewVersions);
    if (!version) throw new CallFailure(`webhook does not accept v1 or v1beta1 AdmissionReview`);
    const review = buildReview(domain, version, a, m.target, m.kind, object && m.convert(object), a.oldObject && m.convert(a.oldObject));
    try {
      const t = await webhookTarget(hook.clientConfig ?? {}, reader, credentialsFor);
      const answer = await postReview(t, review.body, (hook.timeoutSeconds ?? 10) * 1000);
      return readResponse(domain, review, answer);
    } catch (err) {
      throw err instanceof CallFailure ? err : new CallFailure(messageOf(err));
    }
  }

  /** The webhook's refusal as a Status error, as Kubernetes' ToStatusErr builds it. */
  function refusal(name: string, r: ReviewResponse): status.ApiError {
    const s = { ...(r.status ?? {}) };
    const code = (s.code ?? 0) < 400 ? 400 : s.code!;
    const deniedBy = `admission webhook ${JSON.stringify(name)} denied the request`;
    const message = s.message ? `${deniedBy}: ${s.message}` : s.reason ? `${deniedBy}: ${s.reason}` : `${deniedBy} without explanation`;
    return new status.ApiError({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message,
      reason: (s.reason as status.Status['reason']) ?? '',
      code,
    } as status.Status);
  }

  /** Runs one webhook: its warnings kept, its refusal or (per failurePolicy) its failure thrown. */
  async function run(m: Match, a: AdmissionAttributes, object: ApiObject | undefined): Promise<ReviewResponse | undefined> {
    const hook = m.hook.hook;
    const name = hook.name ?? '';
    if (a.dryRun && hook.sideEffects !== 'None' && hook.sideEffects !== 'NoneOnDryRun') {
      throw status.badRequest(`admission webhook ${JSON.stringify(name)} does not support dry run`);
    }
    const started = process.hrtime.bigint();
    const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
    let r: ReviewResponse;
    try {
      r = await call(m, a, object);
    } catch (err) {
      if (hook.failurePolicy === 'Ignore') {
        metrics.webhookLatency({ name, type: kind, operation: a.operation, rejected: false }, seconds());
        return undefined;
      }
      metrics.webhookLatency({ name, type: kind, operation: a.operation, rejected: true }, seconds());
      metrics.webhookRejection({ name, type: kind, operation: a.operation, errorType: 'calling_webhook_error', code: 0 });
      throw status.internal(new Error(`failed calling webhook ${JSON.stringify(name)}: failed to call webhook: ${messageOf(err)}`));
    }
    metrics.webhookLatency({ name, type: kind, operation: a.operation, rejected: !r.allowed }, seconds());
    for (const w of r.warnings ?? []) a.warnings.push(w);
    // A webhook's audit annotations are kept under its name, as Kubernetes keys them.
    for (const [k, v] of Object.entries(r.auditAnnotations ?? {})) if (a.auditAnnotations) a.auditAnnotations[`${name}/${k}`] = v;
    if (!r.allowed) {
      const e = refusal(name, r);
      metrics.webhookRejection({ name, type: kind, operation: a.operation, errorType: 'no_error', code: e.code });
      throw e;
    }
    return r;
  }

  /**
   * A webhook's JSONPatch applied to the object, which must still match its schema (as Kubernetes decodes
   * the patched object into its type): the patched object, or why it cannot be.
   */
  function patched(m: Match, a: AdmissionAttributes, patch: string): ApiObject | string {
    if (!a.object)
      return `admission webhook ${JSON.stringify(m.hook.hook.name)} attempted to modify the object, which is not supported for this operation`;
    let result: unknown;
    try {
      result = applyJsonPatch(m.convert(deepCopy(a.object)), JSON.parse(Buffer.from(patch, 'base64').toString('utf8')));
    } catch (err) {
      return `the JSONPatch does not apply: ${messageOf(err)}`;
    }
    if (!isPlainObject(result)) return 'the patched object is not a JSON object';
    const back = m.convertBack(result as ApiObject);
    const { errors } = checkAgainstSchema(back, a.resource.schemaRef, env.definitions);
    if (errors.length) return `the patched object does not match the schema of ${a.resource.kind}: ${errors.join('; ')}`;
    return back;
  }

  /**
   * Mutating: one after another; an IfNeeded webhook runs again once if a later one changed the object.
   * DELETE and CONNECT reach them too (a DELETE has no object a patch could change).
   */
  async function admit(hooks: Hook[], a: AdmissionAttributes): Promise<void> {
    const matches = await matching(hooks, a);
    if (matches.length === 0) return;
    const seenAfter = new Map<Match, ApiObject>();
    const mutate = async (m: Match) => {
      const r = await run(m, a, a.object);
      if (r?.patch) {
        const next = patched(m, a, r.patch);
        if (typeof next === 'string') {
          if (m.hook.hook.failurePolicy === 'Ignore') return;
          throw status.internal(new Error(`failed calling webhook ${JSON.stringify(m.hook.hook.name)}: ${next}`));
        }
        for (const k of Object.keys(a.object!)) delete (a.object as Record<string, unknown>)[k];
        Object.assign(a.object!, next);
      }
      if (m.hook.hook.reinvocationPolicy === 'IfNeeded' && a.object) seenAfter.set(m, deepCopy(a.object));
    };
    for (const m of matches) await mutate(m);
    for (const m of matches) {
      const seen = seenAfter.get(m);
      if (seen && !jsonEqual(seen, a.object)) await mutate(m);
    }
  }

  /** Validating: all at once; the first refusal in webhook order is the answer. */
  async function validate(hooks: Hook[], a: AdmissionAttributes): Promise<void> {
    const matches = await matching(hooks, a);
    const results = await Promise.allSettled(matches.map((m) => run(m, a, a.object)));
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
  }

  return { admit, validate };
}
