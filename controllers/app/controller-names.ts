/**
 * The controllers orch-controller-manager knows, by kube-controller-manager's names (with their
 * older aliases), and which ones --controllers enables: entries are read in order and the first that
 * names a controller (`name` or `-name`) decides; otherwise `*` enables the default-on ones.
 */

export interface ControllerName {
  /** Canonical name, e.g. "namespace-controller". */
  name: string;
  aliases: string[];
  /** Enabled by `*`. */
  defaultOn: boolean;
}

export const KNOWN_CONTROLLERS: readonly ControllerName[] = [
  { name: 'bootstrap-signer-controller', aliases: ['bootstrapsigner'], defaultOn: false },
  { name: 'certificatesigningrequest-approving-controller', aliases: ['csrapproving'], defaultOn: true },
  { name: 'certificatesigningrequest-cleaner-controller', aliases: ['csrcleaner'], defaultOn: true },
  { name: 'certificatesigningrequest-signing-controller', aliases: ['csrsigning'], defaultOn: true },
  { name: 'clusterrole-aggregation-controller', aliases: ['clusterrole-aggregation'], defaultOn: true },
  { name: 'cronjob-controller', aliases: ['cronjob'], defaultOn: true },
  { name: 'daemonset-controller', aliases: ['daemonset'], defaultOn: true },
  { name: 'deployment-controller', aliases: ['deployment'], defaultOn: true },
  { name: 'disruption-controller', aliases: ['disruption'], defaultOn: true },
  { name: 'endpoints-controller', aliases: ['endpoint'], defaultOn: true },
  { name: 'endpointslice-controller', aliases: ['endpointslice'], defaultOn: true },
  { name: 'endpointslice-mirroring-controller', aliases: ['endpointslicemirroring'], defaultOn: true },
  { name: 'garbage-collector-controller', aliases: ['garbagecollector'], defaultOn: true },
  { name: 'job-controller', aliases: ['job'], defaultOn: true },
  { name: 'legacy-serviceaccount-token-cleaner-controller', aliases: ['legacy-service-account-token-cleaner'], defaultOn: false },
  { name: 'namespace-controller', aliases: ['namespace'], defaultOn: true },
  { name: 'node-lifecycle-controller', aliases: ['nodelifecycle'], defaultOn: true },
  { name: 'persistentvolume-binder-controller', aliases: ['persistentvolume-binder'], defaultOn: true },
  { name: 'persistentvolume-protection-controller', aliases: ['pv-protection'], defaultOn: true },
  { name: 'persistentvolumeclaim-protection-controller', aliases: ['pvc-protection'], defaultOn: true },
  { name: 'pod-garbage-collector-controller', aliases: ['podgc'], defaultOn: true },
  { name: 'replicaset-controller', aliases: ['replicaset'], defaultOn: true },
  { name: 'replicationcontroller-controller', aliases: ['replicationcontroller'], defaultOn: true },
  { name: 'resourcequota-controller', aliases: ['resourcequota'], defaultOn: true },
  { name: 'root-ca-certificate-publisher-controller', aliases: ['root-ca-cert-publisher'], defaultOn: true },
  { name: 'serviceaccount-controller', aliases: ['serviceaccount'], defaultOn: true },
  { name: 'serviceaccount-token-controller', aliases: ['serviceaccount-token'], defaultOn: true },
  { name: 'statefulset-controller', aliases: ['statefulset'], defaultOn: true },
  { name: 'token-cleaner-controller', aliases: ['tokencleaner'], defaultOn: false },
  { name: 'ttl-after-finished-controller', aliases: ['ttl-after-finished'], defaultOn: true },
  { name: 'ttl-controller', aliases: ['ttl'], defaultOn: true },
];

function canonical(name: string): string | undefined {
  return KNOWN_CONTROLLERS.find((c) => c.name === name || c.aliases.includes(name))?.name;
}

/**
 * The canonical names --controllers enables, in KNOWN_CONTROLLERS order. Throws on a name that is
 * not known (as kube-controller-manager's validation does).
 */
export function enabledControllers(entries: readonly string[]): string[] {
  const resolved = entries.map((entry) => {
    if (entry === '*') return entry;
    const negated = entry.startsWith('-');
    const name = canonical(negated ? entry.slice(1) : entry);
    if (!name) throw new Error(`${JSON.stringify(negated ? entry.slice(1) : entry)} is not in the list of known controllers`);
    return negated ? `-${name}` : name;
  });
  return KNOWN_CONTROLLERS.filter((c) => {
    for (const entry of resolved) {
      if (entry === c.name) return true;
      if (entry === `-${c.name}`) return false;
    }
    return resolved.includes('*') && c.defaultOn;
  }).map((c) => c.name);
}
