/**
 * The CONNECT subresources as declared (api SubresourceStrategy.connect): their verbs and options kinds
 * as Kubernetes' discovery lists them. endpoints/handlers/connect.ts proxies them.
 */
import type { SubresourceStrategy } from '../../api/strategy.js';
import type { Verb } from '../../api/resource.js';

const PROXY_VERBS: readonly Verb[] = ['create', 'delete', 'get', 'patch', 'update'];
const STREAM_VERBS: readonly Verb[] = ['create', 'get'];

function connect(kind: string, verbs: readonly Verb[]): SubresourceStrategy {
  return { connect: { kind }, verbs, prepareForUpdate: (obj) => obj };
}

export const podConnectSubresources: Record<string, SubresourceStrategy> = {
  attach: connect('PodAttachOptions', STREAM_VERBS),
  exec: connect('PodExecOptions', STREAM_VERBS),
  log: { ...connect('PodLogOptions', ['get']), connect: { kind: 'PodLogOptions', discoveryKind: 'Pod' } },
  portforward: connect('PodPortForwardOptions', STREAM_VERBS),
  proxy: connect('PodProxyOptions', PROXY_VERBS),
};

export const serviceProxySubresource = connect('ServiceProxyOptions', PROXY_VERBS);
export const nodeProxySubresource = connect('NodeProxyOptions', PROXY_VERBS);
