/**
 * CustomResourceDefinition: defaults (conversion None, singular and listKind from the kind), schemas
 * kept to what JSONSchemaProps has, storedVersions recording every storage version, Kubernetes 1.28's
 * validation, and deletion that waits for the CRD's objects to be removed (the cleanup finalizer and the
 * Terminating condition, as Kubernetes' CRD registry sets them).
 */
import { timestamp } from '../../../api/object-meta.js';
import { typedStrategy } from '../../../api/strategy.js';
import type { CustomResourceDefinition } from '../../../api/generated/types.js';
import { isObject, dropUnknownKeywords } from '../../shared/cel-schema/json-schema.js';
import { validateCrd, validateCrdUpdate } from './validation.js';
import { cleanupFinalizer, setCondition } from './conditions.js';

function applyDefaults(crd: CustomResourceDefinition, prefix: string): void {
  const spec = crd.spec;
  if (!isObject(spec)) return;
  spec.conversion ??= { strategy: 'None' };
  if (isObject(spec.names) && spec.names.kind) {
    spec.names.singular ??= spec.names.kind.toLowerCase();
    spec.names.listKind ??= `${spec.names.kind}List`;
  }
  for (const v of Array.isArray(spec.versions) ? spec.versions : []) {
    const schema: unknown = v?.schema?.openAPIV3Schema;
    if (isObject(schema)) dropUnknownKeywords(schema, prefix);
  }
}

/** Adds the storage version to status.storedVersions when it is not there yet. */
function recordStorageVersion(crd: CustomResourceDefinition): void {
  const storage = crd.spec?.versions?.find((v) => v.storage)?.name;
  if (!storage) return;
  crd.status ??= {};
  const stored = (crd.status.storedVersions ??= []);
  if (!stored.includes(storage)) stored.push(storage);
}

export const crdStrategy = typedStrategy<CustomResourceDefinition>({
  applyDefaults: (crd, ctx) => applyDefaults(crd, ctx.domain.extensionPrefix),
  prepareForCreate(crd) {
    crd.status = {};
    recordStorageVersion(crd);
  },
  prepareForUpdate: (crd) => recordStorageVersion(crd),
  validate: (crd, ctx) => validateCrd(crd, ctx.domain.extensionPrefix),
  validateUpdate: (crd, old, ctx) => validateCrdUpdate(crd, old, ctx.domain.extensionPrefix),
  beforeDelete(crd, ctx) {
    const finalizer = cleanupFinalizer(ctx.domain.group('apiextensions.k8s.io'));
    const finalizers = (crd.metadata.finalizers ??= []);
    if (!finalizers.includes(finalizer)) finalizers.push(finalizer);
    // Marked as Kubernetes' CRD registry marks it: no grace period and the generation kept (not the
    // generic marking of an object its finalizers hold).
    crd.metadata.deletionTimestamp ??= timestamp(ctx.now);
    setCondition(
      crd,
      {
        type: 'Terminating',
        status: 'True',
        reason: 'InstanceDeletionPending',
        message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
      },
      ctx.now,
    );
    return 'graceful';
  },
});
