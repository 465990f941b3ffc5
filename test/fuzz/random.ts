/**
 * A seeded source of randomness for the fuzz suite (sfc32, seeded through splitmix32): the same seed
 * gives the same inputs in the same order per lane, so a failure printed with its seed is replayed by
 * ORCH_FUZZ_SEED=<seed>. Plus the odd values the generators share: strings of awkward unicode (lone
 * surrogates, NUL, RTL marks, astral characters), numbers at and beyond the limits of every number
 * type, and random JSON values.
 */

export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** An item by weight: [[weight, item], …]. */
  weighted<T>(items: readonly (readonly [number, T])[]): T;
  /** A new independent Random derived from this one (one per lane). */
  fork(): Random;
}

function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

export function newRandom(seed: number): Random {
  const init = splitmix32(seed);
  let a = init();
  let b = init();
  let c = init();
  let d = init();
  const u32 = () => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) >>> 0;
    return t;
  };
  for (let i = 0; i < 12; i++) u32();
  const r: Random = {
    next: () => u32() / 0x1_0000_0000,
    int: (min, max) => min + Math.floor(r.next() * (max - min + 1)),
    chance: (p) => r.next() < p,
    pick: (items) => items[Math.floor(r.next() * items.length)],
    weighted(items) {
      const total = items.reduce((n, [w]) => n + w, 0);
      let x = r.next() * total;
      for (const [w, item] of items) {
        x -= w;
        if (x < 0) return item;
      }
      return items[items.length - 1][1];
    },
    fork: () => newRandom(u32()),
  };
  return r;
}

/** Characters that break naive string handling: lone and paired surrogates, controls, combining and bidi marks, BOMs. */
export const ODD_CHARS = [
  '\ud800', // lone high surrogate
  '\udfff', // lone low surrogate
  '\udc00\ud800', // reversed pair
  '😀', // astral (a valid pair)
  '\u0000',
  '\u0001',
  '\u001f',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u200b',
  '\u200e',
  '\u202e', // right-to-left override
  '\u2028',
  '\u2029',
  '\ufeff',
  '\ufffd',
  '\uffff',
  '\u0301', // combining acute
  'ﬀ',
  'İ', // changes length when lower-cased
  'ß',
  'Σ',
  '\\',
  '"',
  "'",
  '\n',
  '\r',
  '\t',
  '%',
  '%00',
  '%ZZ',
  '$',
  '{',
  '}',
  '[',
  ']',
  ',',
  ':',
  '/',
  '~',
  '~0',
  '~1',
  '~2',
  '..',
  '*',
  '!',
  '=',
  '&',
  '?',
  '#',
  ' ',
];

const PLAIN = 'abcdefghijklmnopqrstuvwxyz0123456789-.';

/** A string of length up to max: mostly plain name characters, sometimes odd ones. */
export function randomString(r: Random, max = 16): string {
  const len = r.int(0, max);
  let s = '';
  for (let i = 0; i < len; i++) s += r.chance(0.75) ? PLAIN[r.int(0, PLAIN.length - 1)] : r.pick(ODD_CHARS);
  return s;
}

/** A string with no odd character: what passes for a name, key or value to a validator that does not look closely. */
export function plainString(r: Random, min = 1, max = 12): string {
  const len = r.int(min, max);
  let s = '';
  for (let i = 0; i < len; i++) s += PLAIN[r.int(0, 25)];
  return s;
}

/** Numbers at and beyond the edges of int32, int64, float64 and of what JSON.parse keeps exact. */
export const EDGE_NUMBERS = [
  0,
  -0,
  1,
  -1,
  0.5,
  1e-7,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31),
  2 ** 32,
  2 ** 53 - 1,
  2 ** 53 + 2,
  -(2 ** 53),
  2 ** 63,
  2 ** 64,
  1e21,
  1e300,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  -Number.MAX_VALUE,
];

/** Number texts JSON.parse reads as Infinity, 0, an inexact integer — or refuses. */
export const EDGE_NUMBER_TEXTS = [
  '1e400',
  '-1e400',
  '1e-400',
  '123456789012345678901234567890',
  '-9223372036854775809',
  '18446744073709551616',
  '0.0000000000000000000000000000001',
  '1E+2',
  '-0.0',
  '00',
  '01',
  '1.',
  '.5',
  '+1',
  '0x10',
  'NaN',
  'Infinity',
  '-Infinity',
  '1_000',
  `1${'0'.repeat(400)}`,
];

export function randomNumber(r: Random): number {
  return r.chance(0.6) ? r.pick(EDGE_NUMBERS) : r.chance(0.5) ? r.int(-1000, 1000) : (r.next() - 0.5) * 10 ** r.int(0, 30);
}

/** A random JSON value of at most `depth` levels. */
export function randomValue(r: Random, depth = 3): unknown {
  const kind = r.int(0, depth > 0 ? 7 : 4);
  switch (kind) {
    case 0:
      return null;
    case 1:
      return r.chance(0.5);
    case 2:
      return randomNumber(r);
    case 3:
    case 4:
      return randomString(r, r.chance(0.05) ? 300 : 16);
    case 5:
      return Array.from({ length: r.int(0, 4) }, () => randomValue(r, depth - 1));
    default: {
      const o: Record<string, unknown> = {};
      for (let i = r.int(0, 4); i > 0; i--) o[randomKey(r)] = randomValue(r, depth - 1);
      return o;
    }
  }
}

/** A key for an object: ordinary names, names of Object.prototype members, the API's directives, odd text. */
export function randomKey(r: Random): string {
  return r.weighted([
    [4, plainString(r)],
    [2, randomString(r, 10)],
    [
      2,
      r.pick([
        '__proto__',
        'constructor',
        'prototype',
        'toString',
        'hasOwnProperty',
        'valueOf',
        '$patch',
        '$retainKeys',
        '$deleteFromPrimitiveList/finalizers',
        '$setElementOrder/containers',
        'apiVersion',
        'kind',
        'metadata',
        'spec',
        'status',
        'data',
        'binaryData',
        'stringData',
        'name',
        'namespace',
        'resourceVersion',
        'uid',
        'managedFields',
        'finalizers',
        'ownerReferences',
        'labels',
        'annotations',
        'generateName',
        'deletionTimestamp',
        '',
        'x'.repeat(300),
      ]),
    ],
  ]);
}
