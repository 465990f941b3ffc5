/**
 * Kubernetes' naming condition: a CRD's names are accepted when no other CRD of its group has taken
 * them (plural, singular, short names, kind, list kind); then NamesAccepted and Established are True.
 * A CRD keeps the names it was established with while a change of them conflicts.
 */
import type { CustomResourceDefinition, CustomResourceDefinitionNames } from '../../../api/generated/types.js';
import { isConditionTrue, setCondition } from './conditions.js';

function namesTaken(others: readonly CustomResourceDefinition[], group: string, self: string) {
  const resources = new Set<string>();
  const kinds = new Set<string>();
  for (const o of others) {
    if (o.metadata.name === self || o.spec?.group !== group) continue;
    const n = o.status?.acceptedNames;
    if (!n) continue;
    for (const r of [n.plural, n.singular, ...(n.shortNames ?? [])]) if (r) resources.add(r);
    for (const k of [n.kind, n.listKind]) if (k) kinds.add(k);
  }
  return { resources, kinds };
}

/** Why `names` cannot be accepted next to the other CRDs, or undefined. */
export function nameConflict(
  names: CustomResourceDefinitionNames,
  group: string,
  self: string,
  others: readonly CustomResourceDefinition[],
): string | undefined {
  const { resources, kinds } = namesTaken(others, group, self);
  if (resources.has(names.plural)) return `"${names.plural}" is already in use`;
  if (names.singular && resources.has(names.singular)) return `"${names.singular}" is already in use`;
  for (const s of names.shortNames ?? []) if (resources.has(s)) return `"${s}" is already in use`;
  if (kinds.has(names.kind)) return `"${names.kind}" is already in use`;
  if (names.listKind && kinds.has(names.listKind)) return `"${names.listKind}" is already in use`;
  return undefined;
}

/**
 * The status a CRD should have given the other CRDs: accepted names and the NamesAccepted and
 * Established conditions. Changes `crd` in place; returns whether anything changed.
 */
export function reconcileNames(crd: CustomResourceDefinition, others: readonly CustomResourceDefinition[], now: Date): boolean {
  const before = JSON.stringify(crd.status ?? {});
  const conflict = nameConflict(crd.spec.names, crd.spec.group, crd.metadata.name ?? '', others);
  crd.status ??= {};
  if (conflict) {
    setCondition(crd, { type: 'NamesAccepted', status: 'False', reason: 'NameConflict', message: conflict }, now);
    if (!isConditionTrue(crd, 'Established')) {
      setCondition(crd, { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' }, now);
    }
  } else {
    crd.status.acceptedNames = structuredClone(crd.spec.names);
    setCondition(crd, { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' }, now);
    if (!isConditionTrue(crd, 'Established')) {
      setCondition(
        crd,
        { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' },
        now,
      );
    }
  }
  return JSON.stringify(crd.status) !== before;
}
