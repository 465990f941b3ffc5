/**
 * StorageObjectInUseProtection: every PersistentVolume created gets the `<prefix>/pv-protection`
 * finalizer and every PersistentVolumeClaim `<prefix>/pvc-protection`, so neither goes while in use;
 * the pv-protection and pvc-protection controllers remove them once nothing uses the object.
 */
import type { MutatingPlugin, PluginFactory } from '../interfaces.js';
import { isResource, PERSISTENT_VOLUME_CLAIMS, PERSISTENT_VOLUMES } from '../resources.js';

export const newStorageObjectInUseProtection: PluginFactory = ({ domain }): MutatingPlugin => {
  const finalizers = [
    { resource: PERSISTENT_VOLUMES, finalizer: `${domain.labelPrefix}/pv-protection` },
    { resource: PERSISTENT_VOLUME_CLAIMS, finalizer: `${domain.labelPrefix}/pvc-protection` },
  ];
  return {
    name: 'StorageObjectInUseProtection',
    handles: (op) => op === 'CREATE',
    handlesResource: (r) => finalizers.some((f) => isResource(r, f.resource)),
    async admit(a) {
      if (a.subresource || !a.object) return;
      const finalizer = finalizers.find((f) => isResource(a.resource, f.resource))?.finalizer;
      if (!finalizer) return;
      const meta = a.object.metadata;
      if (!meta.finalizers?.includes(finalizer)) meta.finalizers = [...(meta.finalizers ?? []), finalizer];
    },
  };
};
