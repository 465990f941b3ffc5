import type { ResourceDeclaration } from '../resource.js';

export const corePodResources: ResourceDeclaration[] = [];
