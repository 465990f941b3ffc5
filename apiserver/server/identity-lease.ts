/**
 * The API server's identity Lease (kube-apiserver's APIServerIdentity feature): each replica keeps a
 * Lease `apiserver-<hash>` in the system namespace, labelled `apiserver.<label prefix>/identity=
 * <short>-apiserver` (apiserver.orch.io/identity=orch-apiserver; with --api-domain=k8s.io
 * apiserver.kubernetes.io/identity=kube-apiserver in kube-system, as Kubernetes), held by
 * `<name>_<uuid>` of this run, renewed every 10 s with a 1 h duration. So any client (the console's
 * overview) can see which replicas share the store. Every replica also deletes the identity Leases
 * that expired, once at start and then hourly (kube-apiserver's apiserverleasegc).
 *
 * Kubernetes hashes the hostname with the component's name: one replica per host. orch runs several
 * on one machine (scripts/, the e2e topology, --workers), so the serving port and the worker slot go
 * into the hash too; a restarted replica on the same host, port and slot takes its Lease back. And
 * a replica that stops gracefully deletes its own Lease (when it still holds it), so a stopped one
 * is not listed for the hour its Lease would take to expire.
 */
import { createHash, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { ApiDomain } from '../api/domain.js';
import { asKind, type ApiObject } from '../api/object.js';
import type { Lease } from '../api/generated/types.js';
import * as status from '../api/status.js';
import type { Logger } from '../component-base/logs/logger.js';
import type { GenericStore } from '../registry/generic/store.js';
import { SYSTEM_USER } from './bootstrap-namespaces.js';

/** kube-apiserver's IdentityLeaseDurationSeconds. */
export const IDENTITY_LEASE_DURATION_SECONDS = 3600;
/** kube-apiserver's IdentityLeaseRenewIntervalPeriod. */
export const IDENTITY_LEASE_RENEW_MS = 10_000;
/** kube-apiserver's IdentityLeaseGCPeriod. */
export const IDENTITY_LEASE_GC_MS = 3_600_000;
/** How long a stopping server waits to delete its lease. */
const STOP_TIMEOUT_MS = 2_000;
/** The first renewals' retry backoff, doubling to the renew interval (the lease controller's). */
const FIRST_RETRY_MS = 100;

/** The identity label, its value for this server's leases, and the selector of them. */
export function identityLabel(domain: ApiDomain): { key: string; value: string; selector: string } {
  const key = `apiserver.${domain.labelPrefix}/identity`;
  const value = `${domain.systemNamespace.replace(/-system$/, '')}-apiserver`;
  return { key, value, selector: `${key}=${value}` };
}

/** RFC 4648 base32, lower case, unpadded (the shape of Kubernetes' identity hash). */
function base32(bytes: Uint8Array): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

/** `apiserver-<base32 of the first 16 bytes of sha256(length-prefixed host, component, port, slot)>`. */
export function identityLeaseName(host: string, component: string, port: number, slot?: number): string {
  const hash = createHash('sha256');
  for (const part of [host, component, String(port), slot === undefined ? '' : String(slot)]) {
    const bytes = Buffer.from(part, 'utf8');
    const length = Buffer.alloc(2);
    length.writeUInt16BE(bytes.length);
    hash.update(length).update(bytes);
  }
  return `apiserver-${base32(hash.digest().subarray(0, 16))}`;
}

/** A Lease's MicroTime: RFC 3339 with microseconds. */
const microTime = (d: Date) => d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

/** Whether a lease has expired at `now` (one without renewTime or duration has: it is not one of ours). */
export function isLeaseExpired(lease: ApiObject, now: Date): boolean {
  const spec = asKind<Lease>(lease).spec;
  if (spec?.renewTime === undefined || spec.leaseDurationSeconds === undefined) return true;
  const renewed = Date.parse(spec.renewTime);
  return Number.isNaN(renewed) || renewed + spec.leaseDurationSeconds * 1000 < now.getTime();
}

export interface IdentityLeaseDeps {
  domain: ApiDomain;
  /** The Leases store (coordination v1). */
  leases: GenericStore;
  /** The port this replica serves. */
  port: number;
  /** The worker slot with --workers; absent for a server of one process. */
  slot?: number;
  logger: Logger;
  renewMs?: number;
  gcMs?: number;
}

export interface IdentityLease {
  /** This replica's Lease name. */
  readonly name: string;
  readonly holderIdentity: string;
  /** Stops renewing and collecting, and deletes this replica's Lease if it still holds it. */
  stop(): Promise<void>;
}

export function startIdentityLease(deps: IdentityLeaseDeps): IdentityLease {
  const { domain, leases, logger } = deps;
  const renewMs = deps.renewMs ?? IDENTITY_LEASE_RENEW_MS;
  const gcMs = deps.gcMs ?? IDENTITY_LEASE_GC_MS;
  const namespace = domain.systemNamespace;
  const label = identityLabel(domain);
  const host = hostname();
  const name = identityLeaseName(host, label.value, deps.port, deps.slot);
  const holderIdentity = `${name}_${randomUUID()}`;
  const apiVersion = `${domain.group('coordination.k8s.io')}/v1`;
  const ctx = () => ({ namespace, user: SYSTEM_USER, dryRun: false, now: new Date() });
  let stopped = false;
  let renewTimer: NodeJS.Timeout | undefined;
  let gcTimer: NodeJS.Timeout | undefined;
  let renewing: Promise<void> = Promise.resolve();
  let collecting: Promise<void> = Promise.resolve();

  /** Created when missing (Leases allow create on update), else renewed: one optimistic-concurrency loop. */
  const renew = async () => {
    const c = ctx();
    await leases.update(
      c,
      name,
      (old) => ({
        ...(old ?? { apiVersion, kind: 'Lease' }),
        metadata: {
          ...(old?.metadata ?? { name, namespace }),
          labels: { ...old?.metadata.labels, [label.key]: label.value, [`${domain.labelPrefix}/hostname`]: host },
        },
        spec: {
          ...(old && asKind<Lease>(old).spec),
          holderIdentity,
          leaseDurationSeconds: IDENTITY_LEASE_DURATION_SECONDS,
          renewTime: microTime(c.now),
        },
      }),
      { allowCreate: true },
    );
  };

  const gc = async () => {
    const list = await leases.list(ctx(), { labelSelector: label.selector });
    for (const lease of list.items) {
      const now = new Date();
      if (!isLeaseExpired(lease, now)) continue;
      try {
        // Only the lease as it was read (another replica may have renewed or collected it since).
        await leases.delete(ctx(), lease.metadata.name!, {
          preconditions: { uid: lease.metadata.uid, resourceVersion: lease.metadata.resourceVersion },
        });
        logger.info('deleted an expired API server identity lease', { lease: lease.metadata.name });
      } catch (err) {
        if (!status.isApiError(err, 'NotFound') && !status.isApiError(err, 'Conflict')) throw err;
      }
    }
  };

  const scheduleRenew = (delay: number, failures: number) => {
    if (stopped) return;
    renewTimer = setTimeout(() => {
      renewing = renew().then(
        () => scheduleRenew(renewMs, 0),
        (err: unknown) => {
          // The system namespace may not exist yet at the first start: retry soon, backing off.
          if (failures > 0) logger.warn('renewing the API server identity lease failed, retrying', { lease: name, err: String(err) });
          scheduleRenew(Math.min(FIRST_RETRY_MS * 2 ** failures, renewMs), failures + 1);
        },
      );
    }, delay);
    renewTimer.unref();
  };

  const scheduleGc = (delay: number) => {
    if (stopped) return;
    gcTimer = setTimeout(() => {
      collecting = gc()
        .catch((err: unknown) => logger.warn('collecting expired API server identity leases failed', { err: String(err) }))
        .then(() => scheduleGc(gcMs));
    }, delay);
    gcTimer.unref();
  };

  scheduleRenew(0, 0);
  scheduleGc(0);
  return {
    name,
    holderIdentity,
    async stop() {
      stopped = true;
      clearTimeout(renewTimer);
      clearTimeout(gcTimer);
      const release = async () => {
        await Promise.all([renewing, collecting]);
        try {
          const mine = await leases.get(ctx(), name);
          if (asKind<Lease>(mine).spec?.holderIdentity !== holderIdentity) return;
          await leases.delete(ctx(), name, { preconditions: { uid: mine.metadata.uid, resourceVersion: mine.metadata.resourceVersion } });
        } catch (err) {
          // Gone already, renewed by a successor on the same host, port and slot, or the store is down:
          // the lease then expires in its hour and is collected.
          if (!status.isApiError(err)) logger.warn('deleting the API server identity lease failed', { lease: name, err: String(err) });
        }
      };
      // A store that does not answer does not hold the shutdown up: the lease then expires.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([release(), new Promise<void>((r) => (timer = setTimeout(r, STOP_TIMEOUT_MS)))]);
      clearTimeout(timer);
    },
  };
}
