/**
 * PersistentVolumeClaimResize: a claim's storage request may grow only when the claim is Bound and its
 * StorageClass (the same before and after, by spec or beta annotation) has allowVolumeExpansion: true.
 */
import type { ApiObject } from '../../api/object.js';
import { admissionForbidden } from '../errors.js';
import type { PluginFactory, ValidatingPlugin } from '../interfaces.js';
import { cmp } from '../resource-list.js';
import { isResource, PERSISTENT_VOLUME_CLAIMS, STORAGE_CLASSES } from '../resources.js';

interface Claim extends ApiObject {
  spec?: { storageClassName?: string | null; resources?: { requests?: Record<string, string> } };
  status?: { phase?: string };
}

export const newPersistentVolumeClaimResize: PluginFactory = ({ domain, reader }): ValidatingPlugin => {
  const betaClass = `volume.beta.${domain.labelPrefix}/storage-class`;
  const classOf = (c: Claim) => c.metadata.annotations?.[betaClass] ?? c.spec?.storageClassName ?? '';
  return {
    name: 'PersistentVolumeClaimResize',
    handles: (op) => op === 'UPDATE',
    handlesResource: (r) => isResource(r, PERSISTENT_VOLUME_CLAIMS),
    async validate(a) {
      if (!isResource(a.resource, PERSISTENT_VOLUME_CLAIMS) || a.subresource || !a.object || !a.oldObject) return;
      const pvc = a.object as Claim;
      const old = a.oldObject as Claim;
      const size = (c: Claim) => c.spec?.resources?.requests?.storage ?? '0';
      if (cmp(size(pvc), size(old)) <= 0) return;
      if (old.status?.phase !== 'Bound') throw admissionForbidden(a, 'Only bound persistent volume claims can be expanded');
      const name = classOf(pvc);
      const sc = name && name === classOf(old) ? await reader.get(STORAGE_CLASSES, '', name) : null;
      if (sc?.allowVolumeExpansion !== true) {
        throw admissionForbidden(
          a,
          'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize',
        );
      }
    },
  };
};
