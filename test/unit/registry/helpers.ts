/** Shared fixtures of the workload strategy tests: a strategy context and create/update runners. */
import { newApiDomain } from '../../../apiserver/api/domain.js';
import { errorMessage, type FieldError } from '../../../apiserver/api/field-errors.js';
import type { ApiObject } from '../../../apiserver/api/object.js';
import { deepCopy } from '../../../apiserver/api/object.js';
import type { Strategy, StrategyContext } from '../../../apiserver/api/strategy.js';

/** A fixture as a client may send it: any field may be missing, as validation is what reports it. */
export type Decoded<T> = T extends (infer U)[] ? Decoded<U>[] : T extends object ? { [K in keyof T]?: Decoded<T[K]> } : T;

export const ctx: StrategyContext = { domain: newApiDomain(), now: new Date('2024-01-01T00:00:00Z') };

/** An object of a kind, named `name` in namespace `ns`, with a uid (as the store gives it before validation). */
export function object(apiVersion: string, kind: string, spec: unknown, name = 'x', extra: Record<string, unknown> = {}): ApiObject {
  return { apiVersion, kind, metadata: { name, namespace: 'ns', uid: 'uid-1' }, spec: deepCopy(spec), ...extra };
}

/** What the store does on create before storing: defaults, prepareForCreate, validate. */
export function create(strategy: Strategy, obj: ApiObject): { obj: ApiObject; errors: FieldError[] } {
  strategy.applyDefaults?.(obj, ctx);
  strategy.prepareForCreate?.(obj, ctx);
  return { obj, errors: strategy.validate?.(obj, ctx) ?? [] };
}

/** The messages of a create (Kubernetes' `field: body` texts). */
export function createErrors(strategy: Strategy, obj: ApiObject): string[] {
  return create(strategy, obj).errors.map(errorMessage);
}

/** A stored copy of a created object (with a resourceVersion, as the store keeps it). */
export function stored(strategy: Strategy, obj: ApiObject): ApiObject {
  const { obj: created, errors } = create(strategy, obj);
  if (errors.length > 0) throw new Error(`fixture is invalid: ${errors.map(errorMessage).join('; ')}`);
  created.metadata.resourceVersion = '1';
  return created;
}

/** What the store does on update: defaults, prepareForUpdate and validateUpdate (which applies the shared rules itself). */
export function updateErrors(strategy: Strategy, next: ApiObject, old: ApiObject): string[] {
  next.metadata.resourceVersion ??= old.metadata.resourceVersion;
  strategy.applyDefaults?.(next, ctx);
  strategy.prepareForUpdate?.(next, old, ctx);
  return (strategy.validateUpdate?.(next, old, ctx) ?? []).map(errorMessage);
}

export const LABEL_ERR =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
