import type { AdmissionPlugin } from './interfaces.js';
import { deepCopy } from '../api/object.js';
import type { WriteAdmission } from '../registry/write-admission.js';

/** Runs every mutating plugin in order, then (separately, later) every validating plugin on a copy. */
export type AdmissionChain = WriteAdmission & { readonly plugins: readonly string[] };

/**
 * The chain of enabled plugins in their fixed order: `admit` runs each plugin's mutating half, `validate`
 * (called by the store after the strategy's validation) each validating half; the first error stops
 * the request with that plugin's error.
 */
export function newAdmissionChain(plugins: readonly AdmissionPlugin[]): AdmissionChain {
  const mutating = plugins.filter((p) => p.admit);
  const validating = plugins.filter((p) => p.validate);
  return {
    plugins: plugins.map((p) => p.name),
    async admit(a) {
      for (const p of mutating) if (p.handles(a.operation)) await p.admit!(a);
    },
    async validate(a) {
      const wanted = validating.filter((p) => p.handles(a.operation));
      if (wanted.length === 0) return;
      const copy = { ...a, object: a.object && deepCopy(a.object), oldObject: a.oldObject && deepCopy(a.oldObject) };
      for (const p of wanted) await p.validate!(copy);
    },
  };
}
