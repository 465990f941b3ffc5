/**
 * The allocation state of one range: bit i set = offset i in use. Stored base64-encoded (bit i is
 * bit i%8 of byte i/8), small enough to be rewritten on every allocation (≤ 8 KiB: IPv6 ranges are
 * capped at 65536 addresses, node ports at 65536).
 */
export class Bitmap {
  private constructor(
    /** Number of offsets. */
    readonly size: number,
    private readonly bytes: Uint8Array,
  ) {}

  static empty(size: number): Bitmap {
    return new Bitmap(size, new Uint8Array(Math.ceil(size / 8)));
  }

  /** The bitmap of `size` offsets from its base64 form (missing bytes read as free). */
  static decode(size: number, data: string): Bitmap {
    const bytes = new Uint8Array(Math.ceil(size / 8));
    bytes.set(Buffer.from(data, 'base64').subarray(0, bytes.length));
    return new Bitmap(size, bytes);
  }

  encode(): string {
    return Buffer.from(this.bytes).toString('base64');
  }

  has(offset: number): boolean {
    return (this.bytes[offset >> 3] & (1 << (offset & 7))) !== 0;
  }

  set(offset: number): void {
    this.bytes[offset >> 3] |= 1 << (offset & 7);
  }

  clear(offset: number): void {
    this.bytes[offset >> 3] &= ~(1 << (offset & 7));
  }

  /** The first free offset scanning [from, to) from `start` (inclusive) and wrapping; undefined when none. */
  freeIn(from: number, to: number, start: number): number | undefined {
    const span = to - from;
    for (let i = 0; i < span; i++) {
      const at = from + ((start - from + i) % span);
      if (!this.has(at)) return at;
    }
    return undefined;
  }
}
