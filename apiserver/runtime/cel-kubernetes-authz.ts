/**
 * The Kubernetes authorizer CEL library (k8s.io/apiserver/pkg/cel/library/authz.go):
 * `authorizer.group(g).resource(r).subresource(s).namespace(n).name(x).check(verb)`,
 * `authorizer.path(p).check(verb)`, `authorizer.serviceAccount(ns, name)…`, and on a decision
 * `allowed()`, `reason()`, `errored()`, `error()`. Values are one-entry maps (`@authz` → the check
 * so far as JSON, `@decision` → the answer) that only these functions read.
 *
 * Authorizers answer asynchronously and CEL evaluates synchronously, so an evaluation runs inside a
 * context (withAuthorizerContext): a check whose answer the context has is answered, one it has not is
 * recorded as pending (and answered "not allowed" for now); the caller authorizes the pending checks
 * and evaluates again. Evaluation is pure, so running it again is safe.
 */
import { type CelFunc, type CelMap, CelScalar, celMethod, mapType } from '@bufbuild/cel';

const { STRING, BOOL, DYN } = CelScalar;
const OPAQUE = mapType(STRING, DYN);
const AUTHZ = '@authz';
const DECISION = '@decision';

/** What a check asks: a resource (group set) or a path, with the service account it asks for, if any. */
export interface AuthorizerCheck {
  serviceAccount?: { namespace: string; name: string };
  group?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  path?: string;
  verb?: string;
}

export interface AuthorizerAnswer {
  allowed: boolean;
  reason: string;
  error: string;
}

export interface AuthorizerContext {
  /** Answers by check (its JSON). */
  answers: Map<string, AuthorizerAnswer>;
  /** Checks asked for and not answered yet. */
  pending: Set<string>;
}

let current: AuthorizerContext | undefined;

/** Runs `fn` (a synchronous evaluation) with the context its authorizer checks use. */
export function withAuthorizerContext<T>(ctx: AuthorizerContext, fn: () => T): T {
  const outer = current;
  current = ctx;
  try {
    return fn();
  } finally {
    current = outer;
  }
}

const stateOf = (m: CelMap): AuthorizerCheck => {
  const json = m.get(AUTHZ);
  if (typeof json !== 'string') throw new Error('no such overload');
  return JSON.parse(json) as AuthorizerCheck;
};
const value = (c: AuthorizerCheck) => new Map([[AUTHZ, JSON.stringify(c)]]);

/** The `authorizer` variable's value, and `authorizerRequestResource`'s for a request's resource. */
export const authorizerValue = () => value({});
export const requestResourceValue = (c: Omit<AuthorizerCheck, 'path' | 'verb' | 'serviceAccount'>) => value(c);

const answerOf = (m: CelMap): AuthorizerAnswer => {
  const json = m.get(DECISION);
  if (typeof json !== 'string') throw new Error('no such overload');
  return JSON.parse(json) as AuthorizerAnswer;
};

const setter = (field: 'group' | 'resource' | 'subresource' | 'namespace' | 'name' | 'path') =>
  celMethod(field, OPAQUE, [STRING], OPAQUE, function (this: CelMap, v: string) {
    return value({ ...stateOf(this), [field]: v });
  });

function check(this: CelMap, verb: string) {
  const key = JSON.stringify({ ...stateOf(this), verb });
  const known = current?.answers.get(key);
  if (!known) current?.pending.add(key);
  return new Map([[DECISION, JSON.stringify(known ?? { allowed: false, reason: '', error: 'not yet authorized' })]]);
}

export const AUTHZ_FUNCS: readonly CelFunc[] = [
  setter('group'),
  setter('resource'),
  setter('subresource'),
  setter('namespace'),
  setter('name'),
  setter('path'),
  celMethod('serviceAccount', OPAQUE, [STRING, STRING], OPAQUE, function (this: CelMap, namespace: string, name: string) {
    return value({ ...stateOf(this), serviceAccount: { namespace, name } });
  }),
  celMethod('check', OPAQUE, [STRING], OPAQUE, check),
  celMethod('allowed', OPAQUE, [], BOOL, function (this: CelMap) {
    return answerOf(this).allowed;
  }),
  celMethod('reason', OPAQUE, [], STRING, function (this: CelMap) {
    return answerOf(this).reason;
  }),
  celMethod('errored', OPAQUE, [], BOOL, function (this: CelMap) {
    return answerOf(this).error !== '';
  }),
  celMethod('error', OPAQUE, [], STRING, function (this: CelMap) {
    return answerOf(this).error;
  }),
];
