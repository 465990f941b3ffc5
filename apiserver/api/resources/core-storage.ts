import type { ResourceDeclaration } from '../resource.js';

export const coreStorageResources: ResourceDeclaration[] = [];
