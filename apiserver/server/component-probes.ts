/**
 * The probes behind ComponentStatus (registry/core/componentstatus/): the storage (`etcd-0`, asked for
 * its current revision), and the controller manager and scheduler on their local secure ports
 * (`GET https://127.0.0.1:<port>/healthz`, certificate not verified, as kube-apiserver's probes do):
 * Kubernetes' defaults 10257 and 10259, the controller manager's moved by --controller-manager-port
 * (the all-in-one runs its controller manager on a free port and says which).
 */
import { request } from 'node:https';
import type { Storage } from '../storage/interfaces.js';
import type { ComponentHealth, ComponentProbes } from '../registry/core/componentstatus/components.js';

const PROBE_TIMEOUT_MS = 2000;

/** The local components kube-apiserver 1.28 probes, with their default secure ports. */
export const LOCAL_COMPONENTS: readonly { name: string; port: number }[] = [
  { name: 'scheduler', port: 10259 },
  { name: 'controller-manager', port: 10257 },
];

/** GET https://127.0.0.1:<port>/healthz: healthy on 200, with the body as the message. */
export function probeHealthz(name: string, port: number, host = '127.0.0.1'): Promise<ComponentHealth> {
  const url = `https://${host}:${port}/healthz`;
  return new Promise((resolve) => {
    const req = request(url, { rejectUnauthorized: false, timeout: PROBE_TIMEOUT_MS }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        if (res.statusCode === 200) resolve({ name, healthy: true, message: body });
        else resolve({ name, healthy: false, message: body, error: `Get "${url}": HTTP probe failed with statuscode: ${res.statusCode}` });
      });
    });
    req.on('timeout', () => req.destroy(new Error('context deadline exceeded')));
    req.on('error', (err: NodeJS.ErrnoException) => {
      const why = err.code === 'ECONNREFUSED' ? `dial tcp ${host}:${port}: connect: connection refused` : err.message;
      resolve({ name, healthy: false, message: '', error: `Get "${url}": ${why}` });
    });
    req.end();
  });
}

async function probeStorage(storage: Storage): Promise<ComponentHealth> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error('context deadline exceeded')), PROBE_TIMEOUT_MS)),
  );
  try {
    await Promise.race([storage.currentRevision(), timeout]);
    return { name: 'etcd-0', healthy: true, message: 'ok' };
  } catch (err) {
    return { name: 'etcd-0', healthy: false, message: '', error: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(timer);
  }
}

/** LOCAL_COMPONENTS with the controller manager at `controllerManagerPort`. */
export function localComponents(controllerManagerPort: number): { name: string; port: number }[] {
  return LOCAL_COMPONENTS.map((c) => (c.name === 'controller-manager' ? { ...c, port: controllerManagerPort } : c));
}

export function newComponentProbes(storage: Storage, components = LOCAL_COMPONENTS): ComponentProbes {
  return () => Promise.all([...components.map((c) => probeHealthz(c.name, c.port)), probeStorage(storage)]);
}
