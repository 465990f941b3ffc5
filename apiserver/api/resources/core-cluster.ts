import type { ResourceDeclaration } from '../resource.js';

export const coreClusterResources: ResourceDeclaration[] = [];
