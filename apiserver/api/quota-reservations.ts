/**
 * A ResourceQuota's reservations: the usage ResourceQuota admission has charged into status.used for
 * writes that may not be stored yet. Admission charges before the object is written, so a recount of
 * the namespace's objects alone cannot tell a charge in flight from an object deleted since; the
 * reservation names the write, and the quota controller counts a namespace as its objects plus the
 * reservations of objects it does not find (an update's reservation always counts: its object is
 * found either way). Each reservation is added by the same compare-and-swap that charges status.used,
 * removed by the one that refunds it (the write failed) and by a settling swap once the write is
 * stored, so `used` and the reservations always change together.
 *
 * They live in one annotation of the quota (its value JSON: id → reservation), written only through
 * /status; writes of the quota itself keep the stored one. A reservation older than
 * RESERVATION_TTL_MS is dropped by the controller: its server died between charge and write.
 */
import type { ApiDomain } from './domain.js';
import type { ApiObject } from './object.js';

export interface QuotaReservation {
  /** The uid of the object written. */
  uid: string;
  /** An update's growth (a claim's storage) rather than a new object. */
  update?: true;
  /** What was charged, of the resources this quota limits. */
  used: Record<string, string>;
  /** When it was charged (ms since the epoch, the API server's clock). */
  at: number;
}

export type QuotaReservations = Record<string, QuotaReservation>;

/** Longer than any write may take between its charge and its store. */
export const RESERVATION_TTL_MS = 5 * 60_000;

export function reservationsAnnotation(domain: ApiDomain): string {
  return `resourcequota.${domain.labelPrefix}/reservations`;
}

function isReservation(v: unknown): v is QuotaReservation {
  const r = v as QuotaReservation;
  return (
    typeof r === 'object' &&
    r !== null &&
    typeof r.uid === 'string' &&
    typeof r.at === 'number' &&
    typeof r.used === 'object' &&
    r.used !== null &&
    Object.values(r.used).every((q) => typeof q === 'string')
  );
}

/** The quota's reservations; a malformed annotation (or entry) holds none. */
export function reservationsOf(quota: ApiObject, key: string): QuotaReservations {
  const raw = quota.metadata.annotations?.[key];
  if (!raw) return {};
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter(([, v]) => isReservation(v))) as QuotaReservations;
  } catch {
    return {};
  }
}

/** Sets the quota's reservations (none: the annotation goes). */
export function setReservations(quota: ApiObject, key: string, reservations: QuotaReservations): void {
  const annotations = { ...(quota.metadata.annotations ?? {}) };
  if (Object.keys(reservations).length) annotations[key] = JSON.stringify(reservations);
  else delete annotations[key];
  if (Object.keys(annotations).length) quota.metadata.annotations = annotations;
  else delete quota.metadata.annotations;
}

/** What carrying the annotation needs of an object (typed kinds as well as ApiObject). */
interface Annotated {
  metadata?: { annotations?: Record<string, string> };
}

/** Carries `from`'s reservations annotation onto `to` as it is (absent stays absent). */
export function carryReservations(to: Annotated & { metadata: object }, from: Annotated | null, key: string): void {
  const value = from?.metadata?.annotations?.[key];
  const meta = to.metadata as { annotations?: Record<string, string> };
  if (value === undefined && meta.annotations?.[key] === undefined) return;
  const annotations = { ...(meta.annotations ?? {}) };
  if (value === undefined) delete annotations[key];
  else annotations[key] = value;
  if (Object.keys(annotations).length) meta.annotations = annotations;
  else delete meta.annotations;
}
