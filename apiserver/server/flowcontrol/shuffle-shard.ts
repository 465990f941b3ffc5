/**
 * Shuffle sharding as Kubernetes deals it (util/shufflesharding and apf_controller's hashFlowID): a
 * flow's 64-bit hash (the first 8 bytes, little-endian, of SHA-256 over schema name, NUL,
 * distinguisher) deals a hand of `handSize` distinct queues out of `deckSize`.
 */
import { createHash } from 'node:crypto';

export function hashFlow(schemaName: string, distinguisher: string): bigint {
  const sum = createHash('sha256').update(schemaName).update('\0').update(distinguisher).digest();
  return sum.readBigUInt64LE(0);
}

export function dealHand(hash: bigint, deckSize: number, handSize: number): number[] {
  const remainders: number[] = [];
  let h = hash;
  for (let i = 0; i < handSize; i++) {
    const d = BigInt(deckSize - i);
    remainders.push(Number(h % d));
    h /= d;
  }
  return remainders.map((r, i) => {
    let card = r;
    for (let j = i; j > 0; j--) if (card >= remainders[j - 1]) card++;
    return card;
  });
}
