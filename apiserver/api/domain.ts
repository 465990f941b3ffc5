/**
 * The API domain, in ONE place. orch serves Kubernetes' API with group domains ending in `.orch.io`
 * (the default) — or `.k8s.io`, so that unmodified Kubernetes clients work against the same server.
 * Every group name, label/annotation prefix, system namespace and finalizer derived from the domain
 * comes from here.
 */
export interface ApiDomain {
  /** "orch.io" or "k8s.io". */
  readonly domain: string;
  /**
   * The served name of a Kubernetes API group: groups under k8s.io move to the domain
   * (group('storage.k8s.io') = "storage.orch.io"); others ('', 'apps', 'batch', 'policy') stay.
   */
  group(kubernetesGroup: string): string;
  /** Prefix of well-known labels and annotations: "orch.io" ("kubernetes.io" for k8s.io). */
  readonly labelPrefix: string;
  /** The namespace controller's finalizer in Namespace spec.finalizers: "orch" ("kubernetes"). */
  readonly namespaceFinalizer: string;
  /** orch-system / kube-system. */
  readonly systemNamespace: string;
  /** orch-public / kube-public. */
  readonly publicNamespace: string;
  /** orch-node-lease / kube-node-lease: the node agents' heartbeat Leases. */
  readonly nodeLeaseNamespace: string;
  /**
   * The namespaces the API server creates at start and again when they are gone (kube-apiserver's
   * system namespaces controller): system, public, node-lease and default.
   */
  readonly systemNamespaces: readonly string[];
  /** Namespaces that can never be deleted (NamespaceLifecycle): default, system and public — not node-lease. */
  readonly immortalNamespaces: readonly string[];
  /** The Table/meta group: "meta.orch.io". */
  readonly metaGroup: string;
  /** Prefix of the schema extensions clients write and read (CRD schemas, OpenAPI): "x-orch-" ("x-kubernetes-" for k8s.io). */
  readonly extensionPrefix: string;
  /**
   * The meta groups whose views (Table, PartialObjectMetadata) are served: the domain's own and
   * Kubernetes' `meta.k8s.io`, which stock clients (kubectl) ask for whatever the domain.
   */
  readonly viewGroups: readonly string[];
  /**
   * The groups the aggregated discovery document is served in (`Accept: …;as=APIGroupDiscoveryList;g=…`):
   * the domain's `apidiscovery` group and Kubernetes' `apidiscovery.k8s.io`, which stock clients ask for.
   */
  readonly discoveryGroups: readonly string[];
}

/** The meta group unmodified Kubernetes clients name in `Accept: …;as=Table;g=…`. */
const KUBERNETES_META_GROUP = 'meta.k8s.io';
/** The aggregated discovery group unmodified Kubernetes clients name. */
const KUBERNETES_DISCOVERY_GROUP = 'apidiscovery.k8s.io';

export const DEFAULT_API_DOMAIN = 'orch.io';

export function newApiDomain(domain: string = DEFAULT_API_DOMAIN): ApiDomain {
  const kube = domain === 'k8s.io';
  const short = kube ? 'kube' : domain.split('.')[0];
  const systemNamespace = `${short}-system`;
  const publicNamespace = `${short}-public`;
  const nodeLeaseNamespace = `${short}-node-lease`;
  return {
    domain,
    group: (g) => (g.endsWith('.k8s.io') ? `${g.slice(0, -'k8s.io'.length)}${domain}` : g),
    labelPrefix: kube ? 'kubernetes.io' : domain,
    namespaceFinalizer: kube ? 'kubernetes' : short,
    systemNamespace,
    publicNamespace,
    nodeLeaseNamespace,
    systemNamespaces: [systemNamespace, publicNamespace, nodeLeaseNamespace, 'default'],
    immortalNamespaces: ['default', systemNamespace, publicNamespace],
    metaGroup: `meta.${domain}`,
    extensionPrefix: kube ? 'x-kubernetes-' : 'x-orch-',
    viewGroups: kube ? [KUBERNETES_META_GROUP] : [`meta.${domain}`, KUBERNETES_META_GROUP],
    discoveryGroups: kube ? [KUBERNETES_DISCOVERY_GROUP] : [`apidiscovery.${domain}`, KUBERNETES_DISCOVERY_GROUP],
  };
}
