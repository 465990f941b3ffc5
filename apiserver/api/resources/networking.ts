import type { ResourceDeclaration } from '../resource.js';

export const networkingResources: ResourceDeclaration[] = [];
