import type { ResourceDeclaration } from '../resource.js';

export const eventsResources: ResourceDeclaration[] = [];
