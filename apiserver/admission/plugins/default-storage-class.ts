/**
 * DefaultStorageClass: a PersistentVolumeClaim created without a class (no storageClassName, no beta
 * class annotation) gets the default StorageClass (`storageclass.<prefix>/is-default-class: "true"`,
 * beta form too). Several defaults: the newest wins with --api-domain=k8s.io (Kubernetes ≥ 1.26), the
 * create is refused in the default domain (the seed; Kubernetes < 1.26, default-class.ts).
 */
import type { MutatingPlugin, PluginFactory } from '../interfaces.js';
import { admissionForbidden } from '../errors.js';
import { defaultClasses, manyDefaultsRefusal } from '../default-class.js';
import { isResource, PERSISTENT_VOLUME_CLAIMS, STORAGE_CLASSES, writtenObject } from '../resources.js';

export const newDefaultStorageClass: PluginFactory = ({ domain, reader }): MutatingPlugin => {
  const p = domain.labelPrefix;
  const defaultKeys = [`storageclass.${p}/is-default-class`, `storageclass.beta.${p}/is-default-class`];
  const betaClass = `volume.beta.${p}/storage-class`;
  return {
    name: 'DefaultStorageClass',
    handles: (op) => op === 'CREATE',
    handlesResource: (r) => isResource(r, PERSISTENT_VOLUME_CLAIMS),
    async admit(a) {
      const pvc = writtenObject(a, PERSISTENT_VOLUME_CLAIMS);
      if (!pvc) return;
      if (pvc.metadata.annotations?.[betaClass] !== undefined) return;
      if (pvc.spec?.storageClassName !== undefined && pvc.spec.storageClassName !== null) return;
      const found = defaultClasses(await reader.list(STORAGE_CLASSES, ''), (c) =>
        defaultKeys.some((k) => c.metadata.annotations?.[k] === 'true'),
      );
      const refusal = manyDefaultsRefusal(domain, found, 'StorageClasses');
      if (refusal) throw admissionForbidden(a, refusal);
      const def = found.chosen;
      if (!def) return;
      pvc.spec = { ...pvc.spec, storageClassName: def.metadata.name };
    },
  };
};
