import type { ResourceDeclaration } from '../resource.js';

export const coreServiceResources: ResourceDeclaration[] = [];
