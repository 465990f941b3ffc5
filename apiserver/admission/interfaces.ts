/**
 * Admission: plugins see every write after decoding and before storage. Mutating plugins may change
 * the object; validating plugins only accept or refuse (throw an ApiError) and get their own copy.
 */
import type { AdmissionAttributes, Operation } from '../registry/write-admission.js';

/** The attributes are the store's (registry/write-admission.ts): admission sits above the store. */
export type { AdmissionAttributes, Operation };

export interface AdmissionPlugin {
  readonly name: string;
  /** Whether the plugin wants to see this operation. */
  handles(operation: Operation): boolean;
}

export interface MutatingPlugin extends AdmissionPlugin {
  admit(attributes: AdmissionAttributes): Promise<void>;
}

export interface ValidatingPlugin extends AdmissionPlugin {
  validate(attributes: Readonly<AdmissionAttributes>): Promise<void>;
}
