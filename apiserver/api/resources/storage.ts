import type { ResourceDeclaration } from '../resource.js';

export const storageResources: ResourceDeclaration[] = [];
