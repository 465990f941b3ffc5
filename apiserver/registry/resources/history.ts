/**
 * history.k8s.io/v1, served under the API domain (history.orch.io): the revision ledger's listings.
 * DeletedObject is made on read (registry/history/deleted-objects.ts: what was deleted inside the
 * --history-retention window); Restore is never stored, a POST puts a deleted object (or a
 * namespace with its contents) back (registry/history/restore.ts). Their schemas are
 * api/history-definitions.ts. (An object's own history is the `history` subresource of its kind.)
 */
import type { KindDeclaration } from '../generic/kind-declaration.js';
import { HISTORY_ENV } from '../history/history-env.js';
import { listDeletedObjects } from '../history/deleted-objects.js';
import { newRestoreAction } from '../history/restore.js';

const GROUP = 'history.k8s.io';

export const historyResources: KindDeclaration[] = [
  {
    kubernetesGroup: GROUP,
    version: 'v1',
    kind: 'DeletedObject',
    plural: 'deletedobjects',
    singular: 'deletedobject',
    namespaced: true,
    schema: 'history.v1.DeletedObject',
    nameRule: 'dns-subdomain',
    verbs: ['list'],
    notStored: true,
    computed: (env) => {
      const history = env.need(HISTORY_ENV);
      return {
        // Listed only through `page`; a computed get is not served (verbs: list).
        list: async () => [],
        page: (ctx, opts, def) => listDeletedObjects(history, ctx, def.apiVersion, opts),
      };
    },
  },
  {
    kubernetesGroup: GROUP,
    version: 'v1',
    kind: 'Restore',
    plural: 'restores',
    singular: 'restore',
    namespaced: false,
    schema: 'history.v1.Restore',
    nameRule: 'dns-subdomain',
    verbs: ['create'],
    ephemeral: true,
    newCreateAction: (env) => newRestoreAction(env.need(HISTORY_ENV)),
  },
];
