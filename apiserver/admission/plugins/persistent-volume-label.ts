/**
 * PersistentVolumeLabel (deprecated in Kubernetes 1.28, off by default): a dynamically provisioned
 * PersistentVolume (`pv.<prefix>/provisioned-by`) that carries its zone and region labels (GA
 * `topology.<prefix>/zone|region`, else the beta `failure-domain.beta.<prefix>/zone|region`) gets a
 * node affinity requiring them (a zone label may list several zones joined by `__`), unless its
 * affinity already speaks of those keys. Kubernetes asks a cloud provider for the labels of GCE PD,
 * Azure Disk and vSphere volumes; orch has none, so creating one is refused as Kubernetes refuses it
 * when its cloud provider cannot answer.
 */
import { admissionForbidden } from '../errors.js';
import type { MutatingPlugin, PluginFactory } from '../interfaces.js';
import { isResource, PERSISTENT_VOLUMES } from '../resources.js';

interface Requirement {
  key: string;
  operator: string;
  values: string[];
}

interface PersistentVolume {
  metadata: { name?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: {
    gcePersistentDisk?: { pdName?: string };
    azureDisk?: { diskName?: string };
    vsphereVolume?: { volumePath?: string };
    nodeAffinity?: { required?: { nodeSelectorTerms?: { matchExpressions?: Requirement[] }[] } };
  };
}

/** The placeholder name of a GCE PD still being provisioned: nothing to ask the cloud about. */
const PROVISIONED_VOLUME_NAME = 'placeholder-for-provisioning';

export const newPersistentVolumeLabel: PluginFactory = ({ domain }): MutatingPlugin => {
  const p = domain.labelPrefix;
  const zone = `topology.${p}/zone`;
  const region = `topology.${p}/region`;
  const betaZone = `failure-domain.beta.${p}/zone`;
  const betaRegion = `failure-domain.beta.${p}/region`;
  const provisionedBy = `pv.${p}/provisioned-by`;

  /** The labels the volume's node affinity must require, or a reason to refuse it. */
  function volumeLabels(pv: PersistentVolume): Record<string, string> | string {
    const labels = pv.metadata.labels ?? {};
    const [z, r] = zone in labels && region in labels ? [zone, region] : [betaZone, betaRegion];
    if (pv.metadata.annotations?.[provisionedBy] !== undefined && z in labels && r in labels) return { [z]: labels[z]!, [r]: labels[r]! };
    const gce = pv.spec?.gcePersistentDisk;
    if (gce && gce.pdName !== PROVISIONED_VOLUME_NAME)
      return `error querying GCE PD volume ${gce.pdName ?? ''}: no cloud provider is configured`;
    if (pv.spec?.azureDisk) return `error querying AzureDisk volume ${pv.spec.azureDisk.diskName ?? ''}: no cloud provider is configured`;
    if (pv.spec?.vsphereVolume) {
      return `error querying vSphere Volume ${pv.spec.vsphereVolume.volumePath ?? ''}: no cloud provider is configured`;
    }
    return {};
  }

  return {
    name: 'PersistentVolumeLabel',
    handles: (op) => op === 'CREATE',
    async admit(a) {
      if (!isResource(a.resource, PERSISTENT_VOLUMES) || !a.object) return;
      const pv = a.object as PersistentVolume;
      const labels = volumeLabels(pv);
      if (typeof labels === 'string') throw admissionForbidden(a, labels);
      if (Object.keys(labels).length === 0) return;
      const requirements: Requirement[] = [];
      for (const [key, value] of Object.entries(labels)) {
        let values = [value];
        if (key === zone || key === betaZone) {
          const zones = value.split('__').map((v) => v.trim());
          if (zones.includes('')) throw admissionForbidden(a, `failed to convert label string for Zone: ${value} to a Set`);
          values = [...new Set(zones)].sort();
        }
        requirements.push({ key, operator: 'In', values });
      }
      pv.metadata.labels = { ...pv.metadata.labels, ...labels };
      pv.spec ??= {};
      const required = ((pv.spec.nodeAffinity ??= {}).required ??= {});
      const terms = (required.nodeSelectorTerms = required.nodeSelectorTerms?.length ? required.nodeSelectorTerms : [{}]);
      const keys = new Set(requirements.map((r) => r.key));
      if (terms.some((t) => (t.matchExpressions ?? []).some((e) => keys.has(e.key)))) return;
      for (const t of terms)
        t.matchExpressions = [...(t.matchExpressions ?? []), ...requirements.map((r) => ({ ...r, values: [...r.values] }))];
    },
  };
};
