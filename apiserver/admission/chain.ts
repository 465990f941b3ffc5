import type { AdmissionAttributes, MutatingPlugin, ValidatingPlugin } from './interfaces.js';
import { deepCopy } from '../api/object.js';
import type { WriteAdmission } from '../registry/write-admission.js';

/** Runs every mutating plugin in order, then (separately, later) every validating plugin on a copy. */
export type AdmissionChain = WriteAdmission;

export function newAdmissionChain(mutating: MutatingPlugin[], validating: ValidatingPlugin[]): AdmissionChain {
  return {
    async admit(a) {
      for (const p of mutating) if (p.handles(a.operation)) await p.admit(a);
    },
    async validate(a) {
      const wanted = validating.filter((p) => p.handles(a.operation));
      if (wanted.length === 0) return;
      const copy: AdmissionAttributes = { ...a, object: a.object && deepCopy(a.object), oldObject: a.oldObject && deepCopy(a.oldObject) };
      for (const p of wanted) await p.validate(copy);
    },
  };
}
