import type { RequestInfo } from './request-info.js';

/** Verbs and subresources whose requests stay open (Kubernetes' BasicLongRunningRequestCheck, as kube-apiserver configures it). */
const LONG_RUNNING_VERBS = new Set(['watch', 'proxy']);
const LONG_RUNNING_SUBRESOURCES = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);

/** Whether a request may stay open for long: watches, proxies, exec/attach/port-forward streams and logs. */
export function isLongRunning(info: RequestInfo): boolean {
  if (LONG_RUNNING_VERBS.has(info.verb)) return true;
  if (info.isResourceRequest) return LONG_RUNNING_SUBRESOURCES.has(info.subresource);
  return info.path.startsWith('/debug/pprof/');
}
