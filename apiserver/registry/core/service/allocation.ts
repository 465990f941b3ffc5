/**
 * One hook call's effect on the allocators, finished after the write: what it took is given back
 * when the write fails (revert), what the new object no longer uses is given back once the write
 * succeeded (commit). Dry runs take and give back nothing.
 */
import * as status from '../../../api/status.js';
import type { FieldError } from '../../../api/field-errors.js';
import type { Service } from '../../../api/generated/types.js';
import type { HookTransaction } from '../../generic/store-hooks.js';
import type { AllocatorLogger } from './allocator/service-allocators.js';

/** A release to run later; failures are logged, as a lost release only leaks a value. */
export type Release = () => Promise<void>;

export class Allocation implements HookTransaction {
  private readonly onRevert: Release[] = [];
  private readonly onCommit: Release[] = [];

  constructor(
    private readonly logger: AllocatorLogger,
    private readonly dryRun: boolean,
  ) {}

  /** Gives `release` back if the write fails. */
  taken(release: Release): void {
    if (!this.dryRun) this.onRevert.push(release);
  }

  /** Runs `release` once the write succeeded. */
  releaseOnCommit(release: Release): void {
    if (!this.dryRun) this.onCommit.push(release);
  }

  async commit(): Promise<void> {
    await this.run(this.onCommit.splice(0), 'release after update');
    this.onRevert.length = 0;
  }

  async revert(): Promise<void> {
    await this.run(this.onRevert.splice(0), 'release after failed write');
    this.onCommit.length = 0;
  }

  private async run(releases: Release[], what: string): Promise<void> {
    for (const release of releases) {
      await release().catch((err: unknown) => this.logger.warn(`service allocation: ${what} failed`, { err: String(err) }));
    }
  }
}

/** Kubernetes' errors.NewInvalid(Kind("Service"), name, errors). */
export function invalidService(obj: Service, errors: FieldError[]): status.ApiError {
  return status.invalid({ group: '', kind: 'Service' }, obj.metadata.name ?? '', errors);
}

/** Kubernetes' errors.NewInternalError(message). */
export function internalError(message: string): status.ApiError {
  return status.internal(new Error(message));
}
