/** An applied configuration must name the resource's own apiVersion and kind (400 otherwise). */
import * as status from '../api/status.js';
import type { Manager } from './manager.js';

/** A group-version-kind as Kubernetes prints it: `apps/v1, Kind=Deployment`, `/v1, Kind=ConfigMap`. */
export function gvkString(apiVersion: unknown, kind: unknown): string {
  const av = typeof apiVersion === 'string' ? apiVersion : '';
  const [group, version] = av.includes('/') ? av.split('/', 2) : ['', av];
  return `${group}/${version}, Kind=${typeof kind === 'string' ? kind : ''}`;
}

export function withVersionCheck(inner: Manager, apiVersion: string, kind: string): Manager {
  return {
    update: (live, next, managed, manager) => inner.update(live, next, managed, manager),
    apply(live, config, managed, manager, force) {
      if (config.apiVersion !== apiVersion || config.kind !== kind)
        throw status.badRequest(`invalid object type: ${gvkString(config.apiVersion, config.kind)}`);
      return inner.apply(live, config, managed, manager, force);
    },
  };
}
