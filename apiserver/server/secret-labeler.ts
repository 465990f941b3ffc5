/**
 * The SecretLabeler the service-account authenticator tracks legacy token use with: sets labels on
 * a Secret through the generic store (as the system, like kube-apiserver's own client), only while
 * it is the Secret the token named (same uid). A failure is logged; the request goes on. `stores` is
 * read at each call: authentication is built before the stores.
 */
import type { ResourceDef } from '../api/resource.js';
import type { ResourceTable } from '../api/resource-table.js';
import * as status from '../api/status.js';
import type { SecretLabeler } from '../authentication/interfaces.js';
import type { Logger } from '../component-base/logs/logger.js';
import type { GenericStore } from '../registry/generic/store.js';
import { SYSTEM_USER } from './bootstrap-namespaces.js';
import { storeLookup } from './store-lookup.js';
import { messageOf } from '../api/thrown.js';

export function newSecretLabeler(
  table: ResourceTable,
  stores: () => ReadonlyMap<ResourceDef, GenericStore>,
  logger: Logger,
): SecretLabeler {
  const lookup = storeLookup(table, stores);
  return async (namespace, name, uid, labels) => {
    const store = lookup.store('', 'v1', 'secrets');
    try {
      await store.update({ namespace, user: SYSTEM_USER, dryRun: false, now: new Date() }, name, (old) => {
        if (!old || old.metadata.uid !== uid) throw status.conflict({ group: '', resource: 'secrets' }, name, 'the Secret was replaced');
        return { ...old, metadata: { ...old.metadata, labels: { ...old.metadata.labels, ...labels } } };
      });
    } catch (err) {
      logger.warn('labelling a legacy service account token Secret failed', { namespace, secret: name, error: messageOf(err) });
    }
  };
}
