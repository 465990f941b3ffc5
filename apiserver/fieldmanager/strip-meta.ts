/**
 * Nobody owns type and identity metadata: apiVersion, kind, and the metadata fields the server sets
 * or that name the object are taken out of the writer's fields after every write.
 */
import { FieldSet } from './field-set.js';
import type { Managed } from './managed-fields.js';
import type { Manager } from './manager.js';
import { fieldElement } from './path-element.js';

const META_FIELDS = [
  'name',
  'namespace',
  'creationTimestamp',
  'selfLink',
  'uid',
  'clusterName',
  'generation',
  'managedFields',
  'resourceVersion',
];

const STRIPPED = FieldSet.of(
  [fieldElement('apiVersion')],
  [fieldElement('kind')],
  [fieldElement('metadata')],
  ...META_FIELDS.map((f) => [fieldElement('metadata'), fieldElement(f)]),
);

function strip(managed: Managed, manager: string): void {
  const vs = managed.fields.get(manager);
  if (!vs) return;
  const set = vs.set.difference(STRIPPED);
  if (set.isEmpty()) managed.fields.delete(manager);
  else managed.fields.set(manager, { ...vs, set });
}

export function withStripMeta(inner: Manager): Manager {
  return {
    update(live, next, managed, manager) {
      const r = inner.update(live, next, managed, manager);
      strip(r.managed, manager);
      return r;
    },
    apply(live, config, managed, manager, force) {
      const r = inner.apply(live, config, managed, manager, force);
      strip(r.managed, manager);
      return r;
    },
  };
}
