/**
 * Reading protobuf wire data from untrusted bytes: every length is checked against what is left
 * before anything is sliced (a 100 MB length prefix on a short body fails at once, allocating
 * nothing), varints longer than 10 bytes fail, and groups (wire types 3 and 4, never used by
 * Kubernetes' messages) are refused. Errors are ProtobufError; callers turn them into 400s.
 */
import { decodeUtf8 } from './utf8.js';

export class ProtobufError extends Error {}

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_BYTES = 2;
export const WIRE_FIXED32 = 5;

export class WireReader {
  pos: number;
  constructor(
    readonly buf: Uint8Array,
    start = 0,
    readonly end = buf.length,
  ) {
    this.pos = start;
  }

  done(): boolean {
    return this.pos >= this.end;
  }

  /** Low and high 32 bits of the last varint read (unsigned). */
  private lo = 0;
  private hi = 0;

  private readVarint(): void {
    let lo = 0;
    let hi = 0;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new ProtobufError('truncated varint');
      const b = this.buf[this.pos++];
      const bits = b & 0x7f;
      if (i < 4) lo |= bits << (7 * i);
      else if (i === 4) {
        lo |= (bits & 0x0f) << 28;
        hi |= bits >> 4;
      } else hi |= bits << (7 * i - 32);
      if (b < 0x80) {
        if (i === 9 && b > 1) break;
        this.lo = lo >>> 0;
        this.hi = hi >>> 0;
        return;
      }
    }
    throw new ProtobufError('varint overflows 64 bits');
  }

  /** A varint as an unsigned number (exact up to 2^53, as JSON numbers are). */
  varint(): number {
    this.readVarint();
    return this.hi * 2 ** 32 + this.lo;
  }

  /** A varint as a two's-complement 64-bit signed integer. */
  int64(): number {
    this.readVarint();
    return (this.hi >= 2 ** 31 ? this.hi - 2 ** 32 : this.hi) * 2 ** 32 + this.lo;
  }

  /** A varint as int32 (a negative int32 is sign-extended to 10 bytes on the wire). */
  int32(): number {
    this.readVarint();
    return this.lo | 0;
  }

  double(): number {
    if (this.pos + 8 > this.end) throw new ProtobufError('truncated fixed64');
    const v = Buffer.from(this.buf.buffer, this.buf.byteOffset + this.pos, 8).readDoubleLE(0);
    this.pos += 8;
    return v;
  }

  /** The bounds [start, end) of a length-delimited field, checked against what is left. */
  delimited(): [number, number] {
    const len = this.varint();
    if (len > this.end - this.pos) throw new ProtobufError(`length ${len} exceeds the ${this.end - this.pos} bytes left`);
    const start = this.pos;
    this.pos += len;
    return [start, this.pos];
  }

  bytes(): Uint8Array {
    const [start, end] = this.delimited();
    return this.buf.subarray(start, end);
  }

  string(): string {
    return decodeUtf8(this.bytes());
  }

  /** A tag: [field number, wire type]. */
  tag(): [number, number] {
    const t = this.varint();
    const number = Math.floor(t / 8);
    if (number < 1 || number > 536_870_911) throw new ProtobufError(`invalid field number ${number}`);
    return [number, t & 7];
  }

  skip(wireType: number): void {
    switch (wireType) {
      case WIRE_VARINT:
        this.varint();
        return;
      case WIRE_FIXED64:
        this.advance(8);
        return;
      case WIRE_BYTES:
        this.delimited();
        return;
      case WIRE_FIXED32:
        this.advance(4);
        return;
      default:
        throw new ProtobufError(`unsupported wire type ${wireType}`);
    }
  }

  private advance(n: number): void {
    if (this.pos + n > this.end) throw new ProtobufError('truncated field');
    this.pos += n;
  }
}
