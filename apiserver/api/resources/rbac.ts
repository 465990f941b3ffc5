import type { ResourceDeclaration } from '../resource.js';

export const rbacResources: ResourceDeclaration[] = [];
