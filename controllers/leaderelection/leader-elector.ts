/**
 * client-go's leader election on a Lease. A candidate tries every retry period (with jitter) to take the
 * lease: it succeeds when the lease is absent, unheld, or not renewed for a whole lease duration as
 * seen by this candidate's own clock (the record must stay unchanged that long). The leader renews
 * every retry period; when it cannot renew within the renew deadline it stops leading. So two
 * candidates never lead at once, as long as the leader stops acting when told to, and a standby takes
 * over within a lease duration (plus a retry period) of the leader's last renewal.
 */
import type { Logger } from '../../apiserver/component-base/logs/logger.js';
import { sleep } from '../informers/backoff.js';
import type { LeaderElectionRecord, ResourceLock } from './lease-lock.js';
import { messageOf } from '../../apiserver/api/thrown.js';

/** client-go's JitterFactor: retry periods are stretched by up to this much. */
export const JITTER_FACTOR = 1.2;

export interface LeaderCallbacks {
  /** Leading has begun; `signal` aborts when it ends. */
  onStartedLeading(signal: AbortSignal): void;
  /** Leading has ended (lost, or the elector was stopped). */
  onStoppedLeading(): void;
  /** Someone (maybe this candidate) was seen to hold the lease. */
  onNewLeader?(identity: string): void;
}

export interface LeaderElectionConfig {
  lock: ResourceLock;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  callbacks: LeaderCallbacks;
  /** Give the lease up (holder cleared) when stopped while leading, so a standby need not wait. */
  releaseOnCancel?: boolean;
  logger?: Logger;
  now?: () => number;
}

/** client-go's checks of the timing flags; throws with its messages. */
export function validateLeaderElectionTiming(c: Pick<LeaderElectionConfig, 'leaseDurationMs' | 'renewDeadlineMs' | 'retryPeriodMs'>): void {
  if (c.leaseDurationMs <= c.renewDeadlineMs) throw new Error('leaseDuration must be greater than renewDeadline');
  if (c.renewDeadlineMs <= JITTER_FACTOR * c.retryPeriodMs) throw new Error('renewDeadline must be greater than retryPeriod*JitterFactor');
  if (c.leaseDurationMs < 1) throw new Error('leaseDuration must be greater than zero');
  if (c.renewDeadlineMs < 1) throw new Error('renewDeadline must be greater than zero');
  if (c.retryPeriodMs < 1) throw new Error('retryPeriod must be greater than zero');
}

/** Whether two records agree in every field (a field added to LeaderElectionRecord is added here). */
function sameRecord(a: LeaderElectionRecord | undefined, b: LeaderElectionRecord): boolean {
  return (
    !!a &&
    a.holderIdentity === b.holderIdentity &&
    a.leaseDurationSeconds === b.leaseDurationSeconds &&
    a.acquireTime === b.acquireTime &&
    a.renewTime === b.renewTime &&
    a.leaderTransitions === b.leaderTransitions
  );
}

export class LeaderElector {
  private observed?: LeaderElectionRecord;
  private observedAt = 0;
  private reportedLeader = '';
  private readonly now: () => number;

  constructor(private readonly config: LeaderElectionConfig) {
    validateLeaderElectionTiming(config);
    this.now = config.now ?? Date.now;
  }

  /** Whether this candidate held the lease at its last successful read or write. */
  isLeader(): boolean {
    return this.observed?.holderIdentity === this.config.lock.identity;
  }

  /** The identity last seen holding the lease ('' if none). */
  leader(): string {
    return this.observed?.holderIdentity ?? '';
  }

  /**
   * Campaigns until `signal` aborts: acquires, leads (callbacks), renews; resolves once leadership is
   * lost or the signal aborted.
   */
  async run(signal: AbortSignal): Promise<void> {
    if (!(await this.acquire(signal))) return;
    const leading = new AbortController();
    this.config.callbacks.onStartedLeading(leading.signal);
    try {
      await this.renew(signal);
    } finally {
      leading.abort();
      if (signal.aborted && this.config.releaseOnCancel) await this.release();
      this.config.callbacks.onStoppedLeading();
    }
  }

  private retryDelay(): number {
    return this.config.retryPeriodMs * (1 + Math.random() * (JITTER_FACTOR - 1));
  }

  private async acquire(signal: AbortSignal): Promise<boolean> {
    const { logger, lock } = this.config;
    logger?.info('attempting to acquire leader lease', { lease: lock.describe(), identity: lock.identity });
    while (!signal.aborted) {
      if (await this.tryAcquireOrRenew()) {
        logger?.info('successfully acquired lease', { lease: lock.describe(), identity: lock.identity });
        return true;
      }
      await sleep(this.retryDelay(), signal);
    }
    return false;
  }

  /** Renews every retry period; returns when a renewal missed the deadline or `signal` aborted. */
  private async renew(signal: AbortSignal): Promise<void> {
    const { logger, lock } = this.config;
    while (!signal.aborted) {
      const deadline = this.now() + this.config.renewDeadlineMs;
      let renewed = await this.tryAcquireOrRenew();
      while (!renewed && !signal.aborted && this.now() + this.config.retryPeriodMs < deadline) {
        await sleep(this.config.retryPeriodMs, signal);
        renewed = await this.tryAcquireOrRenew();
      }
      if (signal.aborted) return;
      if (!renewed) {
        logger?.warn('failed to renew lease', { lease: lock.describe(), identity: lock.identity, deadlineMs: this.config.renewDeadlineMs });
        return;
      }
      await sleep(this.config.retryPeriodMs, signal);
    }
  }

  /** One round: take or renew the lease if it is ours to take. False on any failure. */
  private async tryAcquireOrRenew(): Promise<boolean> {
    const { lock, logger } = this.config;
    const now = this.now();
    const mine: LeaderElectionRecord = {
      holderIdentity: lock.identity,
      leaseDurationSeconds: Math.ceil(this.config.leaseDurationMs / 1000),
      acquireTime: now,
      renewTime: now,
      leaderTransitions: 0,
    };
    try {
      const current = await lock.get();
      if (!current) {
        await lock.create(mine);
        this.observe(mine, now);
        return true;
      }
      if (!sameRecord(this.observed, current)) this.observe(current, now);
      const heldByOther = current.holderIdentity !== '' && current.holderIdentity !== lock.identity;
      if (heldByOther && this.observedAt + current.leaseDurationSeconds * 1000 > now) return false;
      if (current.holderIdentity === lock.identity) {
        mine.acquireTime = current.acquireTime;
        mine.leaderTransitions = current.leaderTransitions;
      } else mine.leaderTransitions = current.leaderTransitions + 1;
      await lock.update(mine);
      this.observe(mine, now);
      return true;
    } catch (err) {
      logger?.warn('error acquiring or renewing lease', { lease: lock.describe(), error: messageOf(err) });
      return false;
    }
  }

  private observe(record: LeaderElectionRecord, at: number): void {
    this.observed = record;
    this.observedAt = at;
    if (record.holderIdentity && record.holderIdentity !== this.reportedLeader) {
      this.reportedLeader = record.holderIdentity;
      this.config.callbacks.onNewLeader?.(record.holderIdentity);
    }
  }

  /** Clears the holder so another candidate can take the lease at once. */
  private async release(): Promise<void> {
    if (!this.isLeader()) return;
    const now = this.now();
    const released: LeaderElectionRecord = {
      holderIdentity: '',
      leaseDurationSeconds: 1,
      acquireTime: now,
      renewTime: now,
      leaderTransitions: this.observed!.leaderTransitions,
    };
    try {
      await this.config.lock.update(released);
      this.observe(released, now);
    } catch (err) {
      this.config.logger?.warn('failed to release lease', { lease: this.config.lock.describe(), error: messageOf(err) });
    }
  }
}
