/** NamespaceExists: a write into a namespace that does not exist is refused with 404 (namespaces). */
import * as status from '../../api/status.js';
import type { PluginFactory, ValidatingPlugin } from '../interfaces.js';
import { isResource, NAMESPACES } from '../resources.js';

export const newNamespaceExists: PluginFactory = ({ reader }): ValidatingPlugin => ({
  name: 'NamespaceExists',
  handles: (op) => op === 'CREATE' || op === 'UPDATE' || op === 'DELETE',
  async validate(a) {
    if (!a.namespace || isResource(a.resource, NAMESPACES)) return;
    if (!(await reader.get(NAMESPACES, '', a.namespace))) throw status.notFound({ group: '', resource: 'namespaces' }, a.namespace);
  },
});
