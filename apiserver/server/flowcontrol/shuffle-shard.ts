/**
 * Shuffle sharding as Kubernetes deals it (util/shufflesharding and apf_controller's hashFlowID): a
 * flow's 64-bit hash (the first 8 bytes, little-endian, of SHA-256 over schema name, NUL,
 * distinguisher) deals a hand of `handSize` distinct queues out of `deckSize`.
 */
import { createHash } from 'node:crypto';

/**
 * Flows seen lately and their hashes: a flood queues or rejects thousands of requests a second of
 * the same flow, and a SHA-256 for each was some 4% of the server's CPU in the apf-flood bench.
 */
const recentHashes = new Map<string, bigint>();
const MAX_REMEMBERED = 4096;

export function hashFlow(schemaName: string, distinguisher: string): bigint {
  const key = `${schemaName}\0${distinguisher}`;
  let hash = recentHashes.get(key);
  if (hash === undefined) {
    hash = createHash('sha256').update(key).digest().readBigUInt64LE(0);
    // Forgetting them all at once keeps the map bounded whatever the distinguishers (user names, namespaces).
    if (recentHashes.size >= MAX_REMEMBERED) recentHashes.clear();
    recentHashes.set(key, hash);
  }
  return hash;
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
