/**
 * The default class among StorageClasses or IngressClasses: those annotated as default, the newest
 * first, then by name (Kubernetes' GetDefaultClass); null when none is.
 */
import type { ApiObject } from '../api/object.js';

export function pickDefaultClass(classes: ApiObject[], isDefault: (c: ApiObject) => boolean): ApiObject | null {
  const defaults = classes.filter(isDefault);
  defaults.sort((x, y) => {
    const tx = Date.parse(x.metadata.creationTimestamp ?? '') || 0;
    const ty = Date.parse(y.metadata.creationTimestamp ?? '') || 0;
    if (tx !== ty) return ty - tx;
    return (x.metadata.name ?? '') < (y.metadata.name ?? '') ? -1 : 1;
  });
  return defaults[0] ?? null;
}
