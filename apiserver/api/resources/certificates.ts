import type { ResourceDeclaration } from '../resource.js';

export const certificatesResources: ResourceDeclaration[] = [];
