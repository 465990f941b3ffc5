/**
 * Protobuf bodies for the fuzz suite: valid envelopes (as the server itself encodes its objects)
 * mutated where the wire format can lie: lengths beyond the message, varints of ten bytes and more,
 * wire types that do not exist or do not fit the field, field number 0, groups, an envelope naming
 * another kind or an encoding, strings of invalid UTF-8 (lone surrogates encoded as CESU-8).
 */
import { mutateBytes } from './mutate.js';
import type { Random } from './random.js';

const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

function varint(n: number | bigint): Buffer {
  let v = BigInt(n);
  if (v < 0n) v += 1n << 64n;
  const out: number[] = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) b |= 0x80;
    out.push(b);
  } while (v > 0n);
  return Buffer.from(out);
}

function field(number: number, wireType: number, payload: Buffer): Buffer {
  const tag = varint((number << 3) | wireType);
  return wireType === 2 ? Buffer.concat([tag, varint(payload.length), payload]) : Buffer.concat([tag, payload]);
}

/** An envelope of raw message bytes, as Kubernetes' runtime.Unknown. */
export function envelope(apiVersion: string, kind: string, raw: Buffer, extra: Buffer = Buffer.alloc(0)): Buffer {
  const typeMeta = Buffer.concat([field(1, 2, Buffer.from(apiVersion)), field(2, 2, Buffer.from(kind))]);
  return Buffer.concat([MAGIC, field(1, 2, typeMeta), field(2, 2, raw), extra]);
}

/** The raw message of an envelope (field 2 of the Unknown after the magic), or undefined. */
export function rawOf(body: Buffer): Buffer | undefined {
  let i = MAGIC.length;
  const read = (): number => {
    let v = 0;
    let shift = 0;
    for (;;) {
      const b = body[i++];
      if (b === undefined) throw new Error('eof');
      v += (b & 0x7f) * 2 ** shift;
      if (!(b & 0x80)) return v;
      shift += 7;
    }
  };
  try {
    while (i < body.length) {
      const tag = read();
      if ((tag & 7) !== 2) return undefined;
      const len = read();
      if (tag >> 3 === 2) return body.subarray(i, i + len);
      i += len;
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/** Offsets of printable ASCII runs of at least 3 bytes: string contents, mostly. */
function textRuns(b: Buffer): number[] {
  const out: number[] = [];
  let run = 0;
  for (let i = 0; i < b.length; i++) {
    if (b[i] >= 0x61 && b[i] <= 0x7a) run++;
    else run = 0;
    if (run >= 3) out.push(i - 2);
  }
  return out;
}

/** The body with 3 bytes of a string replaced by a lone surrogate in CESU-8 (invalid UTF-8 of the same length, so every length still holds). */
export function withLoneSurrogate(r: Random, body: Buffer): Buffer {
  const b = Buffer.from(body);
  const runs = textRuns(b.subarray(MAGIC.length + 10)).map((o) => o + MAGIC.length + 10);
  for (let n = r.int(1, 3); n > 0 && runs.length; n--) {
    const at = r.pick(runs);
    Buffer.from(
      r.pick([
        [0xed, 0xa0, 0x80],
        [0xed, 0xbf, 0xbf],
        [0xed, 0xb0, 0x80],
        [0xc0, 0x80, 0x61],
        [0xef, 0xbf, 0xbe],
      ]),
    ).copy(b, at);
  }
  return b;
}

const apiVersions = ['v1', 'apps/v1', '', 'v2', 'x/y/z', '\u0000'];
const kinds = ['ConfigMap', 'Pod', 'Secret', 'Deployment', 'Status', 'List', 'ConfigMapList', '', 'Unknown'];

/** One mutation of a valid envelope of the kind. */
export function mutateProtobuf(r: Random, body: Buffer, apiVersion: string, kind: string): Buffer {
  const raw = rawOf(body) ?? Buffer.alloc(0);
  switch (r.int(0, 9)) {
    case 0:
    case 1:
      return mutateBytes(r, body);
    case 2: // the raw message mutated inside a sound envelope
      return envelope(apiVersion, kind, mutateBytes(r, raw));
    case 3: // another kind or apiVersion in the envelope
      return envelope(r.pick(apiVersions), r.pick(kinds), raw);
    case 4: // an encoding or content type the server does not decode
      return envelope(
        apiVersion,
        kind,
        raw,
        Buffer.concat([field(3, 2, Buffer.from(r.pick(['gzip', 'x', '']))), field(4, 2, Buffer.from(r.pick(['application/json', 'x'])))]),
      );
    case 5: {
      // a field of the raw message whose length runs past the end, or is negative as a 64-bit varint
      const len = r.pick([2 ** 31, 2 ** 32 + 1, 2 ** 53, -1n, 0xffffffffffffffffn, raw.length + 1]);
      return envelope(apiVersion, kind, Buffer.concat([raw, varint((r.int(1, 20) << 3) | 2), varint(len)]));
    }
    case 6: // wire types 3, 4 (groups), 6, 7 (none), field number 0 and numbers beyond 2^29
      return envelope(
        apiVersion,
        kind,
        Buffer.concat([raw, varint(r.pick([3, 4, 6, 7, 0, 2, 0x0b, 0x0c])), varint(r.pick([0, 1, 2 ** 29 * 8 + 2, 2 ** 35]))]),
      );
    case 7: // a varint of more than ten bytes
      return envelope(
        apiVersion,
        kind,
        Buffer.concat([raw, varint(r.int(1, 15) << 3), Buffer.alloc(r.int(10, 30), 0xff), Buffer.from([0x01])]),
      );
    case 8: // a message field (1: metadata) given again and again, or nested in unknown fields deeply
      return envelope(
        apiVersion,
        kind,
        r.chance(0.5)
          ? Buffer.concat([raw, ...Array.from({ length: r.int(2, 2000) }, () => field(1, 2, Buffer.from([0x0a, 0x01, 0x61])))])
          : Buffer.concat([raw, deepUnknown(r.int(10, 5000))]),
      );
    default:
      return withLoneSurrogate(r, body);
  }
}

/** An unknown length-delimited field holding another, `depth` levels deep. */
function deepUnknown(depth: number): Buffer {
  let b: Buffer = Buffer.from([0x08, 0x01]);
  for (let i = 0; i < depth; i++) b = field(99, 2, b);
  return b;
}
