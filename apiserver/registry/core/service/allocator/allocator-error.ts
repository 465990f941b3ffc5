/**
 * A refused allocation, with Kubernetes' allocator messages ("provided IP is already allocated",
 * "range is full", …). The Service allocation hooks turn NotInRange/Allocated into 422 field errors
 * and the others into internal errors, as Kubernetes does.
 */
export type AllocatorErrorReason = 'NotInRange' | 'Allocated' | 'Full' | 'RangeMismatch';

export class AllocatorError extends Error {
  constructor(
    readonly reason: AllocatorErrorReason,
    message: string,
    /** NotInRange/Allocated: the value refused (an IP string or a port number). */
    readonly value?: string | number,
  ) {
    super(message);
    this.name = 'AllocatorError';
  }
}

/** Kubernetes' ErrFull text. */
export const RANGE_FULL = 'range is full';
/** Kubernetes' allocator text when a stored range differs from the configured one. */
export const RANGE_MISMATCH = 'the provided range does not match the current range';
