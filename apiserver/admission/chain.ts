import type { AdmissionAttributes, AdmissionPlugin, Operation } from './interfaces.js';
import { deepCopy } from '../api/object.js';
import type { ApiObject } from '../api/object.js';
import type { WriteAdmission } from '../registry/write-admission.js';

/** Runs every mutating plugin in order, then (separately, later) every validating plugin on a copy. */
export type AdmissionChain = WriteAdmission & { readonly plugins: readonly string[] };

const OPERATIONS: readonly Operation[] = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'];

/** The plugins of one phase that handle each operation, in chain order (asked once, when the chain is built). */
function byOperation(plugins: readonly AdmissionPlugin[]): ReadonlyMap<Operation, readonly AdmissionPlugin[]> {
  return new Map(OPERATIONS.map((op) => [op, plugins.filter((p) => p.handles(op))]));
}

/**
 * Copies one attribute for the validators on first read and keeps that copy: most validators look at
 * the resource first and never read the object, so most writes copy nothing.
 */
function copiedOnRead(view: AdmissionAttributes, key: 'object' | 'oldObject', source: ApiObject | undefined): void {
  const settle = (value: ApiObject | undefined) => {
    Object.defineProperty(view, key, { value, writable: true, enumerable: true, configurable: true });
    return value;
  };
  Object.defineProperty(view, key, {
    enumerable: true,
    configurable: true,
    get: () => settle(source && deepCopy(source)),
    set: settle,
  });
}

/** The attributes the validators see: the same, with object and oldObject copied when first read. */
function validatingView(a: AdmissionAttributes): AdmissionAttributes {
  const view: AdmissionAttributes = { ...a };
  copiedOnRead(view, 'object', a.object);
  copiedOnRead(view, 'oldObject', a.oldObject);
  return view;
}

/**
 * The chain of enabled plugins in their fixed order: `admit` runs each plugin's mutating half, `validate`
 * (called by the store after the strategy's validation) each validating half; the first error stops
 * the request with that plugin's error.
 */
export function newAdmissionChain(plugins: readonly AdmissionPlugin[]): AdmissionChain {
  const mutating = byOperation(plugins.filter((p) => p.admit));
  const validating = byOperation(plugins.filter((p) => p.validate));
  return {
    plugins: plugins.map((p) => p.name),
    async admit(a) {
      for (const p of mutating.get(a.operation) ?? []) await p.admit!(a);
    },
    async validate(a) {
      const wanted = validating.get(a.operation) ?? [];
      if (wanted.length === 0) return;
      const view = validatingView(a);
      for (const p of wanted) await p.validate!(view);
    },
  };
}
