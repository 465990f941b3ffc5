/** A pod for plugin tests: one container unless the spec says otherwise. */
export function pod(spec: Record<string, unknown> = {}, namespace = 'ns') {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace },
    spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec } as Record<string, unknown> & { containers: Record<string, unknown>[] },
  };
}
