import type { ResourceDeclaration } from '../resource.js';

export const nodeResources: ResourceDeclaration[] = [];
