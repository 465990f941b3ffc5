import type { ResourceDeclaration } from '../resource.js';

export const policyResources: ResourceDeclaration[] = [];
