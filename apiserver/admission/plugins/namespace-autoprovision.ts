/**
 * NamespaceAutoProvision: a create into a namespace that does not exist creates the namespace first
 * (not on dry run); a failure to create it is a 403 with the reason.
 */
import * as status from '../../api/status.js';
import { admissionForbidden } from '../errors.js';
import type { MutatingPlugin, PluginFactory } from '../interfaces.js';
import { isResource, NAMESPACES } from '../resources.js';

export const newNamespaceAutoProvision: PluginFactory = ({ reader, writer }): MutatingPlugin => ({
  name: 'NamespaceAutoProvision',
  handles: (op) => op === 'CREATE',
  async admit(a) {
    if (a.dryRun || !a.namespace || isResource(a.resource, NAMESPACES)) return;
    if (await reader.get(NAMESPACES, '', a.namespace)) return;
    try {
      await writer.create(NAMESPACES, '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: a.namespace } });
    } catch (err) {
      if (status.isApiError(err, 'AlreadyExists')) return;
      throw admissionForbidden(a, err instanceof Error ? err.message : String(err));
    }
  },
});
