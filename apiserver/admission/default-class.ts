/**
 * The default class among StorageClasses or IngressClasses: those annotated as default, the newest
 * first, then by name (Kubernetes' GetDefaultClass); null when none is.
 *
 * Several defaults at once: Kubernetes ≥ 1.26 picks the newest (--api-domain=k8s.io); the default
 * domain follows orch's seed, which says a create that needs the default is refused while more than
 * one exists, as Kubernetes < 1.26 did (`manyDefaultsRefusal`).
 */
import type { ApiDomain } from '../api/domain.js';
import type { KindObject } from '../api/object.js';

export interface DefaultClasses<T extends KindObject = KindObject> {
  /** The newest default, or null. */
  chosen: T | null;
  /** How many classes are annotated as default. */
  count: number;
}

export function defaultClasses<T extends KindObject>(classes: T[], isDefault: (c: T) => boolean): DefaultClasses<T> {
  const defaults = classes.filter(isDefault);
  defaults.sort((x, y) => {
    const tx = Date.parse(x.metadata.creationTimestamp ?? '') || 0;
    const ty = Date.parse(y.metadata.creationTimestamp ?? '') || 0;
    if (tx !== ty) return ty - tx;
    return (x.metadata.name ?? '') < (y.metadata.name ?? '') ? -1 : 1;
  });
  return { chosen: defaults[0] ?? null, count: defaults.length };
}

/**
 * Whether several defaults refuse the create, and why (Kubernetes 1.25's words, an internal error
 * inside the admission Forbidden): undefined in the k8s.io domain or with one default at most.
 */
export function manyDefaultsRefusal(
  domain: ApiDomain,
  found: DefaultClasses,
  what: 'StorageClasses' | 'IngressClasses',
): string | undefined {
  if (domain.domain === 'k8s.io' || found.count <= 1) return undefined;
  const tail = what === 'IngressClasses' ? ', only 1 allowed' : '';
  return `Internal error occurred: ${found.count} default ${what} were found${tail}`;
}
