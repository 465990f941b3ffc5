/**
 * Namespace: phase Active on create, the domain's finalizer in spec.finalizers, the
 * `<prefix>/metadata.name` label; spec changes only through /finalize and status only through
 * /status; deletion marks it Terminating until the namespace controller empties it and finalizes.
 */
import { deepCopy } from '../../../api/object.js';
import { type StrategyContext, typedStrategy, typedSubresource } from '../../../api/strategy.js';
import type { Namespace, NamespaceSpec } from '../../../api/generated/types.js';
import type { FieldError } from '../../../api/field-errors.js';
import { invalid } from '../../../api/field-errors.js';
import { isQualifiedName } from '../../../api/validation/names.js';
import * as status from '../../../api/status.js';
import { withStatusOf } from '../../generic/status-subresource.js';

function spec(obj: Namespace): NamespaceSpec {
  return obj.spec ?? {};
}

function setNameLabel(obj: Namespace, ctx: StrategyContext): void {
  obj.metadata.labels = { ...(obj.metadata.labels ?? {}), [`${ctx.domain.labelPrefix}/metadata.name`]: obj.metadata.name ?? '' };
}

/** Standard finalizer names have no '/'; any other must be a qualified name with a domain. */
function validateFinalizers(obj: Namespace, ctx: StrategyContext): FieldError[] {
  const errors: FieldError[] = [];
  (spec(obj).finalizers ?? []).forEach((f, i) => {
    const path = `spec.finalizers[${i}]`;
    const msgs = isQualifiedName(f);
    msgs.forEach((m) => errors.push(invalid(path, f, m)));
    if (msgs.length === 0 && !f.includes('/') && f !== ctx.domain.namespaceFinalizer) {
      errors.push(invalid(path, f, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
  });
  return errors;
}

export const TERMINATING_MESSAGE =
  'The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.';

export const namespaceStrategy = typedStrategy<Namespace>({
  applyDefaults(obj, ctx) {
    if (obj.metadata.name) setNameLabel(obj, ctx);
  },
  prepareForCreate(obj, ctx) {
    obj.status = { phase: 'Active' };
    const finalizers = spec(obj).finalizers ?? [];
    if (!finalizers.includes(ctx.domain.namespaceFinalizer)) finalizers.push(ctx.domain.namespaceFinalizer);
    obj.spec = { ...spec(obj), finalizers };
    setNameLabel(obj, ctx);
  },
  prepareForUpdate(obj, old, ctx) {
    obj.spec = deepCopy(old.spec);
    setNameLabel(obj, ctx);
  },
  validate: validateFinalizers,
  validateUpdate: (obj, _old, ctx) => validateFinalizers(obj, ctx),
  beforeDelete(obj) {
    if (obj.metadata.deletionTimestamp && (spec(obj).finalizers?.length ?? 0) > 0) {
      throw status.conflict({ group: '', resource: 'namespaces' }, obj.metadata.name ?? '', TERMINATING_MESSAGE);
    }
    obj.status = { ...(obj.status ?? {}), phase: 'Terminating' };
    return (spec(obj).finalizers?.length ?? 0) > 0 ? 'graceful' : 'delete';
  },
  pendingFinalization: (obj) => (spec(obj).finalizers?.length ?? 0) > 0,
});

/**
 * /status: the request's status and metadata (namespaceStatusStrategy resets only the spec); the name
 * label is set again, as Kubernetes' Canonicalize does on every write.
 */
export const namespaceStatusStrategy = typedSubresource<Namespace>({
  prepareForUpdate(obj, old, ctx) {
    const next = withStatusOf(obj, old);
    setNameLabel(next, ctx);
    return next;
  },
});

/** /finalize: only spec.finalizers changes (the namespace controller's way to let it go). */
export const namespaceFinalizeStrategy = typedSubresource<Namespace>({
  prepareForUpdate(obj, old) {
    return { ...deepCopy(old), spec: { ...spec(old), finalizers: deepCopy(spec(obj).finalizers ?? []) } };
  },
  validateUpdate: (obj, _old, ctx) => validateFinalizers(obj, ctx),
});
