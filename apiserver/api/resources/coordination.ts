import type { ResourceDeclaration } from '../resource.js';

export const coordinationResources: ResourceDeclaration[] = [];
