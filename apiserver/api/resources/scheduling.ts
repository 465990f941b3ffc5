import type { ResourceDeclaration } from '../resource.js';

export const schedulingResources: ResourceDeclaration[] = [];
