/**
 * What the generic store asks of admission on every write: the attributes it describes a write with,
 * and the two calls it makes (mutate before the strategy, validate after it). admission/ implements
 * it with its plugin chain; the store knows nothing of plugins.
 */
import type { ApiObject } from '../api/object.js';
import type { ResourceDef } from '../api/resource.js';
import type { UserInfo } from '../api/user-info.js';

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

export interface WriteAdmission {
  /** Mutating admission: may change attributes.object. */
  admit(attributes: AdmissionAttributes): Promise<void>;
  /** Validating admission: accepts or throws an ApiError; never changes the object. */
  validate(attributes: AdmissionAttributes): Promise<void>;
}
