/**
 * Admission: plugins see every write after decoding and before storage. Mutating plugins may change
 * the object; validating plugins only accept or refuse (throw an ApiError) and get their own copy.
 */
import type { ApiObject } from '../api/object.js';
import type { ResourceDef } from '../api/resource.js';
import type { UserInfo } from '../authentication/interfaces.js';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface AdmissionAttributes {
  operation: Operation;
  resource: ResourceDef;
  subresource: string;
  namespace: string;
  name: string;
  /** The object being written (absent for DELETE). */
  object?: ApiObject;
  /** The stored object (UPDATE, DELETE). */
  oldObject?: ApiObject;
  user: UserInfo;
  dryRun: boolean;
}

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
