import type { ResourceDeclaration } from '../resource.js';

export const batchResources: ResourceDeclaration[] = [];
