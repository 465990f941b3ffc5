import type { Strategy } from '../../../api/strategy.js';

/** ServiceAccount: metadata rules only (Kubernetes' ValidateServiceAccount). */
export const serviceAccountStrategy: Strategy = {};
