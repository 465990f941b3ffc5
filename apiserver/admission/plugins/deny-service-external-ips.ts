/**
 * DenyServiceExternalIPs: no Service may take on a new spec.externalIPs entry (403); an update that keeps
 * or removes existing ones is allowed.
 */
import { admissionForbidden } from '../errors.js';
import type { PluginFactory, ValidatingPlugin } from '../interfaces.js';
import { isResource } from '../resources.js';

const SERVICES = { group: '', resource: 'services' };
type Service = { spec?: { externalIPs?: string[] } };

export const newDenyServiceExternalIPs: PluginFactory = (): ValidatingPlugin => ({
  name: 'DenyServiceExternalIPs',
  handles: (op) => op === 'CREATE' || op === 'UPDATE',
  async validate(a) {
    if (!isResource(a.resource, SERVICES) || a.subresource || !a.object) return;
    const ips = (a.object as Service).spec?.externalIPs ?? [];
    const old = new Set((a.oldObject as Service | undefined)?.spec?.externalIPs ?? []);
    if (ips.every((ip) => old.has(ip))) return;
    throw admissionForbidden(a, 'Use of external IPs is denied by admission control');
  },
});
