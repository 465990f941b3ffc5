import type { UserInfo } from '../../authentication/interfaces.js';
import { newRequestSlot } from './request-slot.js';

const slot = newRequestSlot<UserInfo>('user', 'authentication');

/** Set once by the authentication filter. */
export const setUser = slot.set;
/** Who sent the request. */
export const userFrom = slot.get;
