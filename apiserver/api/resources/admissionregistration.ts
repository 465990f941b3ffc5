import type { ResourceDeclaration } from '../resource.js';

export const admissionregistrationResources: ResourceDeclaration[] = [];
