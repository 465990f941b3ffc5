/**
 * One priority level's seats and queues (Kubernetes' fairqueuing/queueset, in a simpler clock): a
 * request is admitted while its seats fit the level's current limit (a request wider than the whole
 * limit runs alone); otherwise a Reject level answers 429 and a Queue level puts it in the shortest
 * (by waiting seats) of its flow's shuffle-sharded hand of queues, or rejects it when that queue
 * holds queueLengthLimit requests. Freed seats go to the head with the least virtual finish time
 * (its queue's virtual dispatch time R plus its seats × G): dispatching adds seats × G to its queue's R and the request's end corrects
 * that by its real duration, so a flow's share is of seat-seconds, not of requests; G starts at
 * Kubernetes' 3 ms and follows the requests' real durations. An Exempt level
 * only counts. Pure: the clock is passed in; nothing here knows HTTP.
 *
 * Unlike Kubernetes, requests wider than one seat (big LISTs) may together hold at most the level's
 * nominal seats (`wideSeatsLimit`), never borrowed ones: kube-apiserver's seats stand for work spread
 * over many cores, but here every request of a worker shares one event loop, so a level that borrowed
 * 360 seats ran 45 LISTs of 5,000 objects at once; each took seconds, they ended together, and a light
 * request of the same level waited seconds for a seat. Borrowed seats still serve one-seat requests,
 * and wide ones together leave at least one seat of the current limit to them.
 */
import { dealHand } from './shuffle-shard.js';

export interface QueuingConfig {
  queues: number;
  handSize: number;
  queueLengthLimit: number;
}

export type RejectReason = 'queue-full' | 'concurrency-limit' | 'time-out' | 'cancelled';

/** Estimated service time of a seat at first (Kubernetes' G, which stays at 3 ms). */
const G_SECONDS = 0.003;
/**
 * How fast the estimate follows the requests' real durations. Kubernetes' fixed 3 ms fits requests
 * served in milliseconds; under a flood of LISTs that take a second each on one event loop, a queue's
 * R would lag its real service until each request ends, and a light flow would wait behind many.
 */
const G_SMOOTHING = 0.05;

/** Seats of a level wide requests never take together (one-seat requests keep them). */
const NARROW_RESERVE = 1;

/** One request known to a level, from its arrival to its end. */
export interface Ticket {
  readonly seats: number;
  readonly flowSchema: string;
  readonly distinguisher: string;
  readonly arrivedAt: number;
  /** The queue it waits or waited in (-1: none). */
  queueIndex: number;
  startedAt?: number;
  /** What the request dump shows of it. */
  readonly request?: RequestDetails;
  /** Called once the request may run (after a wait). */
  onStart(): void;
}

export interface RequestDetails {
  user: string;
  verb: string;
  path: string;
  namespace: string;
  name: string;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
}

export interface Queue {
  readonly index: number;
  readonly waiting: Ticket[];
  waitingSeats: number;
  executing: number;
  seatsInUse: number;
  nextDispatchR: number;
}

export interface LevelCounters {
  dispatched: number;
  rejected: number;
  timedOut: number;
  cancelled: number;
}

export type Admission = { outcome: 'execute' } | { outcome: 'queued' } | { outcome: 'reject'; reason: RejectReason };

export class QueueSet {
  readonly queues: Queue[];
  executing = 0;
  seatsInUse = 0;
  waiting = 0;
  waitingSeats = 0;
  readonly counters: LevelCounters = { dispatched: 0, rejected: 0, timedOut: 0, cancelled: 0 };
  /** The requests executing now (for the dumps). */
  readonly running = new Set<Ticket>();
  /** Seats held by requests wider than one seat. */
  wideSeatsInUse = 0;
  private currentR = 0;
  /** The estimated service time of a seat (Kubernetes' G, 3 ms), followed by what requests took. */
  private g = G_SECONDS;
  private enqueues = 0;
  private demandHigh = 0;
  private demandIntegral = 0;
  private demandSince: number;
  private demandAt: number;

  constructor(
    readonly exempt: boolean,
    readonly queuing: QueuingConfig | undefined,
    /** The seats the level may use now (its current concurrency limit). */
    public concurrencyLimit: number,
    private readonly now: () => number,
    /** The most seats requests wider than one seat may hold together (the level's nominal seats). */
    public wideSeatsLimit = Number.POSITIVE_INFINITY,
  ) {
    this.queues = Array.from({ length: queuing?.queues ?? 0 }, (_, index) => ({
      index,
      waiting: [],
      waitingSeats: 0,
      executing: 0,
      seatsInUse: 0,
      nextDispatchR: 0,
    }));
    this.demandSince = this.demandAt = now();
  }

  /** Admits a request, queues it, or rejects it; `hash` is the flow's (read only when queueing). */
  admit(t: Ticket, hash: () => bigint): Admission {
    if (this.exempt || this.fits(t.seats)) {
      if (this.queuing && this.waiting > 0) return this.enqueue(t, hash);
      this.start(t);
      return { outcome: 'execute' };
    }
    if (!this.queuing) return this.reject('concurrency-limit');
    return this.enqueue(t, hash);
  }

  /** A waiting request leaves its queue (its wait limit passed, or its client went): true if it was waiting. */
  withdraw(t: Ticket, reason: 'time-out' | 'cancelled'): boolean {
    if (t.startedAt !== undefined || t.queueIndex < 0) return false;
    const q = this.queues[t.queueIndex];
    const i = q.waiting.indexOf(t);
    if (i < 0) return false;
    this.noteDemand();
    q.waiting.splice(i, 1);
    q.waitingSeats -= t.seats;
    this.waiting--;
    this.waitingSeats -= t.seats;
    this.counters.rejected++;
    if (reason === 'time-out') this.counters.timedOut++;
    else this.counters.cancelled++;
    return true;
  }

  /** A running request ended: its seats are freed and handed on. */
  finish(t: Ticket): void {
    if (!this.running.has(t)) return;
    this.noteDemand();
    this.executing--;
    this.seatsInUse -= t.seats;
    if (t.seats > 1) this.wideSeatsInUse -= t.seats;
    this.running.delete(t);
    if (t.queueIndex >= 0) {
      const q = this.queues[t.queueIndex];
      q.executing--;
      q.seatsInUse -= t.seats;
      const seconds = (this.now() - (t.startedAt ?? this.now())) / 1000;
      q.nextDispatchR -= t.seats * (this.g - seconds);
      this.g += (seconds - this.g) * G_SMOOTHING;
    }
    this.dispatch();
  }

  /** A new limit (borrowing, or a changed configuration); more room dispatches at once. */
  setConcurrencyLimit(limit: number): void {
    this.concurrencyLimit = limit;
    this.dispatch();
  }

  /** Seat demand (seats in use and waiting) since the last call: its peak and time average. */
  takeDemand(): { highWatermark: number; average: number } {
    this.noteDemand();
    const span = this.demandAt - this.demandSince;
    const out = { highWatermark: this.demandHigh, average: span > 0 ? this.demandIntegral / span : this.seatsInUse + this.waitingSeats };
    this.demandSince = this.demandAt;
    this.demandIntegral = 0;
    this.demandHigh = this.seatsInUse + this.waitingSeats;
    return out;
  }

  get nextR(): number {
    return this.currentR;
  }

  /** The level's virtual time: the least R of the queues waiting, else the R of the last dispatch. */
  private virtualTime(): number {
    let least = Number.POSITIVE_INFINITY;
    for (const q of this.queues) if (q.waiting.length > 0 && q.nextDispatchR < least) least = q.nextDispatchR;
    return least === Number.POSITIVE_INFINITY ? this.currentR : least;
  }

  private noteDemand(): void {
    const now = this.now();
    const demand = this.seatsInUse + this.waitingSeats;
    this.demandIntegral += demand * (now - this.demandAt);
    this.demandAt = now;
  }

  private peak(): void {
    const demand = this.seatsInUse + this.waitingSeats;
    if (demand > this.demandHigh) this.demandHigh = demand;
  }

  /** Another limit for wide requests (a changed configuration). */
  setWideSeatsLimit(limit: number): void {
    this.wideSeatsLimit = limit;
    this.dispatch();
  }

  /**
   * A wide request beyond the wide limit waits for the other wide ones to end; alone it runs. Wide
   * requests together also leave the level's last seat to one-seat ones: a level not borrowing
   * (its current limit at or under its nominal seats) was otherwise filled by LISTs, and another
   * flow's GET of that level waited seconds for one of them to end.
   */
  private wideBlocked(seats: number): boolean {
    if (seats <= 1 || this.wideSeatsInUse === 0) return false;
    return this.wideSeatsInUse + seats > Math.min(this.wideSeatsLimit, this.concurrencyLimit - NARROW_RESERVE);
  }

  private fits(seats: number): boolean {
    if (this.wideBlocked(seats)) return false;
    if (seats > this.concurrencyLimit) return this.executing === 0;
    return this.seatsInUse + seats <= this.concurrencyLimit;
  }

  private reject(reason: RejectReason): Admission {
    this.counters.rejected++;
    return { outcome: 'reject', reason };
  }

  private enqueue(t: Ticket, hash: () => bigint): Admission {
    const cfg = this.queuing!;
    const hand = dealHand(hash(), cfg.queues, Math.min(cfg.handSize, cfg.queues));
    const offset = this.enqueues++ % hand.length;
    let best: Queue | undefined;
    for (let i = 0; i < hand.length; i++) {
      const q = this.queues[hand[(offset + i) % hand.length]];
      if (!best || q.waitingSeats < best.waitingSeats) best = q;
    }
    const q = best!;
    if (q.waiting.length >= cfg.queueLengthLimit) return this.reject('queue-full');
    this.noteDemand();
    // A queue coming back from idle starts at the level's virtual time: an idle flow neither saves
    // up service nor falls behind.
    if (q.waiting.length === 0) q.nextDispatchR = Math.max(q.nextDispatchR, this.virtualTime());
    t.queueIndex = q.index;
    q.waiting.push(t);
    q.waitingSeats += t.seats;
    this.waiting++;
    this.waitingSeats += t.seats;
    this.peak();
    this.dispatch(t);
    return t.startedAt !== undefined ? { outcome: 'execute' } : { outcome: 'queued' };
  }

  /** Dispatches while the head of the fairest queue fits; `self` (the request being admitted) is not told. */
  private dispatch(self?: Ticket): void {
    while (this.waiting > 0 && this.dispatchOne(self)) {}
  }

  /** Dispatches the fairest queue's head if it fits; true when it did. */
  private dispatchOne(self: Ticket | undefined): boolean {
    if (this.waiting === 0) return false;
    let best: Queue | undefined;
    // The least virtual finish time of a head (its queue's R plus its seats × G), as Kubernetes picks.
    let bestFinish = Number.POSITIVE_INFINITY;
    for (const q of this.queues) {
      if (q.waiting.length === 0) continue;
      // A wide head held back by the wide limit waits for a wide request to end, not for the
      // narrow ones: passing it over starves no one, as only a wide request's end frees its room.
      if (this.wideBlocked(q.waiting[0].seats)) continue;
      const finish = q.nextDispatchR + q.waiting[0].seats * this.g;
      if (finish < bestFinish) {
        bestFinish = finish;
        best = q;
      }
    }
    if (!best) return false;
    const q = best;
    const t = q.waiting[0];
    if (!this.fits(t.seats)) return false;
    this.noteDemand();
    q.waiting.shift();
    q.waitingSeats -= t.seats;
    this.waiting--;
    this.waitingSeats -= t.seats;
    this.currentR = q.nextDispatchR;
    q.nextDispatchR += t.seats * this.g;
    q.executing++;
    q.seatsInUse += t.seats;
    this.start(t);
    if (t !== self) t.onStart();
    return true;
  }

  private start(t: Ticket): void {
    this.noteDemand();
    t.startedAt = this.now();
    this.running.add(t);
    this.executing++;
    this.seatsInUse += t.seats;
    if (t.seats > 1) this.wideSeatsInUse += t.seats;
    this.counters.dispatched++;
    this.peak();
  }
}
