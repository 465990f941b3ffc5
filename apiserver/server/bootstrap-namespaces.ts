/**
 * The namespaces that exist from first start: the domain's system, public and node-lease ones, and
 * default; made again when one was deleted (the node-lease one may be; the others are immortal).
 */
import type { ApiDomain } from '../api/domain.js';
import * as status from '../api/status.js';
import type { GenericStore } from '../registry/generic/store.js';
import type { RequestContext } from '../registry/generic/request-context.js';

export const SYSTEM_USER = { name: 'system:apiserver', groups: ['system:masters'] };

export async function ensureSystemNamespaces(namespaces: GenericStore, domain: ApiDomain): Promise<void> {
  for (const name of domain.systemNamespaces) {
    const ctx: RequestContext = { namespace: '', user: SYSTEM_USER, dryRun: false, now: new Date() };
    // Read first: the loop runs every few seconds, and a read costs no write attempt.
    const exists = await namespaces.get(ctx, name).then(
      () => true,
      (err: unknown) => {
        if (status.isApiError(err, 'NotFound')) return false;
        throw err;
      },
    );
    if (exists) continue;
    try {
      await namespaces.create(ctx, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    } catch (err) {
      if (!status.isApiError(err, 'AlreadyExists')) throw err;
    }
  }
}
