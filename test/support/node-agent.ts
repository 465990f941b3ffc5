/**
 * Tests act as the kubelet: Pods never run in orch, so a test writes the status a kubelet would
 * (phase Running, an IP, Ready and ContainersReady conditions) through pods/<name>/status.
 */
import type { TestClient } from './http-client.js';

const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

let nextIp = 10;

/** Marks one Pod Running and Ready (or not ready) as a kubelet would report it. */
export async function setPodReady(client: TestClient, namespace: string, name: string, ready = true): Promise<void> {
  const path = `/api/v1/namespaces/${namespace}/pods/${name}`;
  for (let attempt = 0; ; attempt++) {
    const got = await client.get(path);
    // A Pod deleted meanwhile has no kubelet to report for it any more.
    if (got.status === 404) return;
    const pod = got.body;
    const t = now();
    const ip = pod.status?.podIP ?? `10.0.${Math.floor(nextIp / 250)}.${(nextIp++ % 250) + 1}`;
    const status = ready ? 'True' : 'False';
    pod.status = {
      ...pod.status,
      phase: 'Running',
      podIP: ip,
      podIPs: [{ ip }],
      startTime: pod.status?.startTime ?? t,
      conditions: [
        { type: 'Initialized', status: 'True', lastTransitionTime: t },
        { type: 'Ready', status, lastTransitionTime: t },
        { type: 'ContainersReady', status, lastTransitionTime: t },
        { type: 'PodScheduled', status: 'True', lastTransitionTime: t },
      ],
    };
    const r = await client.put(`${path}/status`, pod);
    if (r.status === 200 || r.status === 404) return;
    if (r.status !== 409 || attempt > 5) throw new Error(`marking ${namespace}/${name} ready: ${r.status} ${r.text}`);
  }
}

/** Reports a Pod finished: phase Succeeded (exit code 0) or Failed (the given exit code), containers terminated. */
export async function setPodFinished(client: TestClient, namespace: string, name: string, exitCode = 0): Promise<void> {
  const path = `/api/v1/namespaces/${namespace}/pods/${name}`;
  for (let attempt = 0; ; attempt++) {
    const got = await client.get(path);
    if (got.status === 404) return;
    const pod = got.body;
    const t = now();
    pod.status = {
      ...pod.status,
      phase: exitCode === 0 ? 'Succeeded' : 'Failed',
      conditions: [
        { type: 'Ready', status: 'False', reason: 'PodCompleted', lastTransitionTime: t },
        { type: 'PodScheduled', status: 'True', lastTransitionTime: t },
      ],
      containerStatuses: pod.spec.containers.map((c: { name: string; image: string }) => ({
        name: c.name,
        image: c.image,
        imageID: '',
        ready: false,
        restartCount: 0,
        state: { terminated: { exitCode, reason: exitCode === 0 ? 'Completed' : 'Error', startedAt: t, finishedAt: t } },
      })),
    };
    const r = await client.put(`${path}/status`, pod);
    if (r.status === 200 || r.status === 404) return;
    if (r.status !== 409 || attempt > 5) throw new Error(`finishing ${namespace}/${name}: ${r.status} ${r.text}`);
  }
}

/** Marks every Pod matching `labelSelector` in the namespace Running and Ready; returns their names. */
export async function setPodsReady(client: TestClient, namespace: string, labelSelector: string): Promise<string[]> {
  const list = (await client.get(`/api/v1/namespaces/${namespace}/pods?labelSelector=${encodeURIComponent(labelSelector)}`)).body;
  const names: string[] = list.items.filter((p: any) => !p.metadata.deletionTimestamp).map((p: any) => p.metadata.name);
  await Promise.all(names.map((n) => setPodReady(client, namespace, n)));
  return names;
}
