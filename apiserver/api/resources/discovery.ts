import type { ResourceDeclaration } from '../resource.js';

export const discoveryResources: ResourceDeclaration[] = [];
