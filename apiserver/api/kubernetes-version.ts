/** The Kubernetes release orch implements: /version reports it, metrics and feature gates are staged against it. */
export const KUBERNETES_MAJOR = 1;
export const KUBERNETES_MINOR = 28;
