/**
 * Seats a request occupies while it executes (Kubernetes' request/width.go and
 * list_work_estimator.go): one, but a LIST as many as it is estimated to process objects per 100,
 * between 1 and the level's most (10, or fewer on a small level: max(1, min(ceil(15% of its
 * nominal seats), nominal / handSize))). A LIST served from the watch cache processes every stored
 * object; one from storage with a selector the stored ones and the page; one without twice the page.
 * A watch counts one seat, for its initialization only.
 */
import type { RequestInfo } from '../../endpoints/request/request-info.js';

export const MINIMUM_SEATS = 1;
export const MAXIMUM_SEATS_LIMIT = 10;
const OBJECTS_PER_SEAT = 100;

/** A level's most seats for one request, from its nominal seats and hand size (apf_controller.go). */
export function maxSeatsOf(nominalCL: number, handSize: number | undefined): number {
  if (!handSize) return MAXIMUM_SEATS_LIMIT;
  return Math.min(MAXIMUM_SEATS_LIMIT, Math.max(1, Math.min(Math.ceil(nominalCL * 0.15), Math.floor(nominalCL / handSize))));
}

export interface EstimateInputs {
  /** Objects stored of the request's resource; undefined when not known (yet). */
  stored: number | undefined;
  /** The level's most seats (maxSeatsOf). */
  maxSeats: number;
  /** Whether the server pages lists (APIListChunking). */
  chunking: boolean;
  /** Whether consistent lists are served from the watch cache (ConsistentListFromCache). */
  consistentFromCache: boolean;
}

export function estimateSeats(info: RequestInfo, inputs: EstimateInputs): number {
  if (info.verb !== 'list' || info.name !== '') return MINIMUM_SEATS;
  const maxSeats = inputs.maxSeats;
  const stored = inputs.stored;
  if (stored === undefined) return MINIMUM_SEATS;
  const q = info.query;
  const rv = q.get('resourceVersion') ?? '';
  const match = q.get('resourceVersionMatch') ?? '';
  const limitParam = Number(q.get('limit') ?? '0');
  const limitGiven = Number.isInteger(limitParam) && limitParam > 0;
  const fromStorage =
    (rv === '' && !inputs.consistentFromCache) ||
    (inputs.chunking && (q.get('continue') ?? '') !== '') ||
    (inputs.chunking && limitGiven && rv !== '0') ||
    (match !== '' && match !== 'NotOlderThan');
  const limit = inputs.chunking && limitGiven && limitParam < stored ? limitParam : stored;
  const selected = (q.get('fieldSelector') ?? '') !== '' || (q.get('labelSelector') ?? '') !== '';
  const objects = !fromStorage ? stored : selected ? stored + limit : 2 * limit;
  return Math.min(maxSeats, Math.max(MINIMUM_SEATS, Math.ceil(objects / OBJECTS_PER_SEAT)));
}
