/** The core group (`/api/v1`) kinds served. */
import type { ResourceDeclaration } from '../../api/resource.js';
import { METADATA_FIELDS, typedColumns, typedSelectableFields } from '../../api/strategy.js';
import type { Namespace, Secret } from '../../api/generated/types.js';
import { configMapStrategy } from '../core/configmap/strategy.js';
import { secretStrategy } from '../core/secret/strategy.js';
import { serviceAccountStrategy } from '../core/serviceaccount/strategy.js';
import { eventStrategy } from '../core/event/strategy.js';
import { eventSelectableFields } from '../shared/event/selectable-fields.js';
import { namespaceFinalizeStrategy, namespaceStatusStrategy, namespaceStrategy } from '../core/namespace/strategy.js';
import { eventColumns } from '../shared/event/columns.js';
import { AGE_COLUMN, countKeys } from '../../api/printers/columns.js';

export const coreResources: ResourceDeclaration[] = [
  {
    kubernetesGroup: '',
    version: 'v1',
    kind: 'Namespace',
    plural: 'namespaces',
    singular: 'namespace',
    shortNames: ['ns'],
    namespaced: false,
    schema: 'core.v1.Namespace',
    nameRule: 'dns-label',
    strategy: namespaceStrategy,
    subresources: { status: namespaceStatusStrategy, finalize: namespaceFinalizeStrategy },
    returnDeletedObject: true,
    columns: [...typedColumns<Namespace>([{ name: 'Status', cell: (o) => o.status?.phase ?? '' }]), AGE_COLUMN],
    // AddFieldLabelConversionsForNamespace: no metadata.namespace.
    selectableFields: typedSelectableFields<Namespace>({
      'status.phase': (o) => o.status?.phase,
      'metadata.name': (o) => o.metadata.name,
    }),
  },
  {
    kubernetesGroup: '',
    version: 'v1',
    kind: 'ConfigMap',
    plural: 'configmaps',
    singular: 'configmap',
    shortNames: ['cm'],
    namespaced: true,
    schema: 'core.v1.ConfigMap',
    nameRule: 'dns-subdomain',
    strategy: configMapStrategy,
    columns: [
      // Kubernetes declares the count a string column, and writes the integer in it.
      {
        name: 'Data',
        description:
          "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during validation process.",
        cell: (o) => countKeys(o.data, o.binaryData),
      },
      AGE_COLUMN,
    ],
  },
  {
    kubernetesGroup: '',
    version: 'v1',
    kind: 'Secret',
    plural: 'secrets',
    singular: 'secret',
    namespaced: true,
    schema: 'core.v1.Secret',
    nameRule: 'dns-subdomain',
    strategy: secretStrategy,
    columns: [
      { name: 'Type', cell: (o) => String(o.type ?? '') },
      {
        name: 'Data',
        description:
          "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string, representing the arbitrary (possibly non-string) data value here. Described in https://tools.ietf.org/html/rfc4648#section-4",
        cell: (o) => countKeys(o.data),
      },
      AGE_COLUMN,
    ],
    selectableFields: { ...typedSelectableFields<Secret>({ type: (o) => o.type }), ...METADATA_FIELDS },
  },
  {
    kubernetesGroup: '',
    version: 'v1',
    kind: 'ServiceAccount',
    plural: 'serviceaccounts',
    singular: 'serviceaccount',
    shortNames: ['sa'],
    namespaced: true,
    schema: 'core.v1.ServiceAccount',
    nameRule: 'dns-subdomain',
    returnDeletedObject: true,
    strategy: serviceAccountStrategy,
    createSubresources: {
      token: { kubernetesGroup: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest', schema: 'authentication.v1.TokenRequest' },
    },
    columns: [{ name: 'Secrets', type: 'integer', cell: (o) => (Array.isArray(o.secrets) ? o.secrets.length : 0) }, AGE_COLUMN],
  },
  {
    kubernetesGroup: '',
    version: 'v1',
    kind: 'Event',
    plural: 'events',
    singular: 'event',
    shortNames: ['ev'],
    namespaced: true,
    schema: 'core.v1.Event',
    expiresAfterEventTtl: true,
    nameRule: 'dns-subdomain',
    strategy: eventStrategy,
    allowCreateOnUpdate: true,
    columns: eventColumns,
    selectableFields: eventSelectableFields,
  },
];
