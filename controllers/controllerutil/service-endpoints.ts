/**
 * What the endpoints and endpointslice controllers read from Services and Pods (Kubernetes'
 * endpoint utilities): which Pods a Service selects, whether a Pod belongs in its endpoints, and the
 * port a Service port reaches on a Pod.
 */
import type { Pod, Service, ServicePort, ServiceSpec } from '../../apiserver/api/generated/types.js';
import { labelSelectorFromObject } from '../../apiserver/runtime/selectors/label-selector.js';
import { podStatus } from './pod-status.js';

export type { ServicePort, ServiceSpec };

export const serviceSpec = (svc: Service): ServiceSpec => svc.spec ?? {};

/** Whether the Service's Pods are chosen by the controllers (a selector is given). */
export function hasSelector(svc: Service): boolean {
  return serviceSpec(svc).selector !== undefined && serviceSpec(svc).selector !== null;
}

/** The Pods of the namespace the Service's selector matches; an empty selector selects none (the Service is selector-less). */
export function selectedPods(svc: Service, pods: Pod[]): Pod[] {
  const sel = serviceSpec(svc).selector;
  if (!sel || Object.keys(sel).length === 0) return [];
  const selector = labelSelectorFromObject({ matchLabels: sel });
  return pods.filter((p) => selector.matches(p.metadata.labels ?? {}));
}

/** The Pod's IPs (podIPs, else podIP). */
export function podIPs(pod: Pod): string[] {
  const s = podStatus(pod);
  const ips = (s.podIPs ?? []).map((p) => p.ip ?? '').filter(Boolean);
  return ips.length ? ips : s.podIP ? [s.podIP] : [];
}

/**
 * ShouldPodBeInEndpoints: it has an IP, it has not finished for good (by its restart policy), and —
 * unless terminating Pods are wanted — it is not being deleted.
 */
export function shouldPodBeInEndpoints(pod: Pod, includeTerminating: boolean): boolean {
  const phase = podStatus(pod).phase;
  const restart = pod.spec?.restartPolicy ?? 'Always';
  if (restart === 'Never' && (phase === 'Failed' || phase === 'Succeeded')) return false;
  if (restart === 'OnFailure' && phase === 'Succeeded') return false;
  if (podIPs(pod).length === 0) return false;
  if (!includeTerminating && pod.metadata.deletionTimestamp) return false;
  return true;
}

/** FindPort: the Pod port a Service port targets (a number, a named container port, or the port itself); undefined when a name is not found. */
export function findPort(pod: Pod, port: ServicePort): number | undefined {
  const target = port.targetPort ?? port.port;
  if (typeof target === 'number') return target;
  if (typeof target === 'string' && /^\d+$/.test(target)) return Number(target);
  const protocol = port.protocol ?? 'TCP';
  const containers = (pod.spec?.containers ?? []).flatMap((c) => c.ports ?? []);
  return containers.find((c) => c.name === target && (c.protocol ?? 'TCP') === protocol)?.containerPort;
}

/** The Pod's hostname for DNS when it names this Service as its subdomain. */
export function podHostname(pod: Pod, svc: Service): string | undefined {
  const spec = pod.spec;
  return spec?.hostname && spec.subdomain === svc.metadata.name && svc.metadata.namespace === pod.metadata.namespace
    ? spec.hostname
    : undefined;
}

export function podTargetRef(pod: Pod) {
  return { kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name, uid: pod.metadata.uid };
}

/** Services in the Pod's namespace whose selector matches these labels. */
export function servicesSelecting(services: Service[], labels: Record<string, string> | undefined): Service[] {
  return services.filter((svc) => {
    const sel = serviceSpec(svc).selector;
    if (!sel || Object.keys(sel).length === 0) return false;
    return Object.entries(sel).every(([k, v]) => labels?.[k] === v);
  });
}
