import type { ResourceDeclaration } from '../resource.js';

export const appsResources: ResourceDeclaration[] = [];
