/**
 * Bootstrap tokens (--enable-bootstrap-token-auth): `<id>.<secret>` (6 and 16 characters of
 * [a-z0-9]) checked against the Secret `bootstrap-token-<id>` of type bootstrap.<prefix>/token in
 * the system namespace, read through the server's cache. The Secret must allow authentication
 * (usage-bootstrap-authentication=true) and not be expired; the user is system:bootstrap:<id> in
 * system:bootstrappers plus the Secret's valid auth-extra-groups.
 */
import { timingSafeEqual } from 'node:crypto';
import { AuthenticationError, type ObjectGetter, type TokenAuthenticator } from './interfaces.js';

const TOKEN = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
const EXTRA_GROUP = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;
export const BOOTSTRAPPERS_GROUP = 'system:bootstrappers';

export interface BootstrapTokenConfig {
  getObject: ObjectGetter;
  /** orch-system / kube-system. */
  namespace: string;
  /** bootstrap.orch.io/token / bootstrap.kubernetes.io/token. */
  secretType: string;
  now?: () => number;
}

export function newBootstrapTokenAuthenticator(config: BootstrapTokenConfig): TokenAuthenticator {
  const now = config.now ?? Date.now;
  return {
    async authenticateToken(token) {
      const m = TOKEN.exec(token);
      if (!m) return null;
      const [, id, secret] = m;
      const name = `bootstrap-token-${id}`;
      const obj = await config.getObject('secrets', config.namespace, name);
      if (!obj || obj.metadata.deletionTimestamp) throw new AuthenticationError(`bootstrap token ${id}: no such token`);
      if (obj.type !== config.secretType) throw new AuthenticationError(`bootstrap token ${id}: secret has the wrong type`);
      const data = (obj.data ?? {}) as Record<string, string>;
      const field = (k: string) => (data[k] === undefined ? undefined : Buffer.from(data[k], 'base64').toString('utf8'));
      if (field('token-id') !== id) throw new AuthenticationError(`bootstrap token ${id}: token-id does not match`);
      const stored = Buffer.from(field('token-secret') ?? '');
      if (stored.length !== secret.length || !timingSafeEqual(stored, Buffer.from(secret))) {
        throw new AuthenticationError(`bootstrap token ${id}: wrong secret`);
      }
      if (field('usage-bootstrap-authentication') !== 'true')
        throw new AuthenticationError(`bootstrap token ${id}: not usable for authentication`);
      const expiration = field('expiration');
      if (expiration !== undefined) {
        const at = Date.parse(expiration);
        if (Number.isNaN(at) || at <= now()) throw new AuthenticationError(`bootstrap token ${id}: expired`);
      }
      const extra = (field('auth-extra-groups') ?? '')
        .split(',')
        .map((g) => g.trim())
        .filter((g) => g !== '');
      const bad = extra.find((g) => !EXTRA_GROUP.test(g));
      if (bad !== undefined) throw new AuthenticationError(`bootstrap token ${id}: invalid auth-extra-groups entry ${JSON.stringify(bad)}`);
      return { name: `system:bootstrap:${id}`, groups: [BOOTSTRAPPERS_GROUP, ...extra.filter((g) => g !== BOOTSTRAPPERS_GROUP)] };
    },
  };
}
