/** events.k8s.io/v1 (served as events.<domain>/v1): Event, stored as core v1 Event and converted. */
import type { ResourceDeclaration } from '../../api/resource.js';
import { eventsV1Conversion } from '../events/conversion.js';
import { eventsV1SelectableFields, eventsV1Strategy } from '../events/strategy.js';
import { eventsV1Columns } from '../events/columns.js';

export const eventsResources: ResourceDeclaration[] = [
  {
    kubernetesGroup: 'events.k8s.io',
    version: 'v1',
    kind: 'Event',
    plural: 'events',
    singular: 'event',
    shortNames: ['ev'],
    namespaced: true,
    schema: 'events.v1.Event',
    expiresAfterEventTtl: true,
    nameRule: 'dns-subdomain',
    strategy: eventsV1Strategy,
    allowCreateOnUpdate: true,
    columns: eventsV1Columns,
    selectableFields: eventsV1SelectableFields,
    conversion: eventsV1Conversion,
  },
];
