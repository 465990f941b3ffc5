/** /healthz, /livez and /readyz of the API server: the store answers, then the post-start hooks. */
import { newHealthChecks, type HealthChecks } from '../component-base/health/health-checks.js';
import type { Logger } from '../component-base/logs/logger.js';
import type { Storage } from '../storage/interfaces.js';
import type { ServerOptions } from './options.js';
import { withTimeout } from './with-timeout.js';

export function newServerHealth(options: ServerOptions, storage: Storage, logger: Logger): HealthChecks {
  const health = newHealthChecks({
    livezGracePeriodMs: options.livezGracePeriodMs,
    // While starting (post-start hooks not done) or draining, /readyz failing is its job: verbose, as kube-apiserver's V(2).
    onFailure: (endpoint, failures) =>
      logger.log(failures.every((f) => f.pending) ? 'verbose' : 'warn', 'health check failed', { endpoint, failures }),
  });
  health.add(
    options.storageBackend === 'etcd3' ? 'etcd' : 'storage',
    () => withTimeout(storage.currentRevision(), 2000, 'storage').then(() => {}),
    ['healthz', 'livez', 'readyz'],
  );
  return health;
}
