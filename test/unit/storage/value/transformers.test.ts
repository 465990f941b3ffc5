import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import {
  aesCbcTransformer,
  aesGcmTransformer,
  identityTransformer,
  PrefixTransformers,
} from '../../../../apiserver/storage/value/transformers.js';

const KEY = '/registry/secrets/default/s';
const plain = Buffer.from('{"kind":"Secret","data":{"password":"aHVudGVyMg=="}}');

test('aesgcm: the stored form is the prefix, a nonce, the ciphertext and the tag; it reads back only under its own storage key', () => {
  const t = new PrefixTransformers([aesGcmTransformer('key1', randomBytes(32))]);
  const stored = t.toStorage(plain, KEY);
  assert.equal(stored.subarray(0, 23).toString(), 'k8s:enc:aesgcm:v1:key1:');
  assert.equal(stored.length, 23 + 12 + plain.length + 16);
  assert.equal(stored.includes(Buffer.from('aHVudGVyMg==')), false);
  assert.deepEqual(t.fromStorage(stored, KEY), plain);
  // A fresh nonce per write: the same value twice is stored two ways.
  assert.notDeepEqual(t.toStorage(plain, KEY), stored);
  // The storage key is authenticated: the same bytes under another key do not decrypt.
  assert.throws(() => t.fromStorage(stored, '/registry/secrets/default/other'), /failed to decrypt/);
  const tampered = Buffer.from(stored);
  tampered[tampered.length - 20] ^= 1;
  assert.throws(() => t.fromStorage(tampered, KEY), /failed to decrypt/);
});

test('aescbc: a random IV and PKCS#7 blocks; every AES key size; other sizes refused', () => {
  for (const size of [16, 24, 32]) {
    const t = new PrefixTransformers([aesCbcTransformer('k', randomBytes(size))]);
    const stored = t.toStorage(plain, KEY);
    assert.equal(stored.subarray(0, 20).toString(), 'k8s:enc:aescbc:v1:k:');
    assert.equal((stored.length - 20) % 16, 0);
    assert.deepEqual(t.fromStorage(stored, KEY), plain);
  }
  assert.throws(() => aesCbcTransformer('k', randomBytes(20)), /16, 24 or 32 bytes/);
  assert.throws(() => aesGcmTransformer('k', randomBytes(8)), /16, 24 or 32 bytes/);
});

test('a provider list writes with the first and reads each value with the provider its prefix names (key rotation, migration off encryption)', () => {
  const key1 = aesGcmTransformer('key1', randomBytes(32));
  const key2 = aesCbcTransformer('key2', randomBytes(32));
  const before = new PrefixTransformers([key1, identityTransformer]);
  const fromKey1 = before.toStorage(plain, KEY);
  // Rotation: key2 first writes, key1 second still reads the old values; plain values read through identity.
  const rotated = new PrefixTransformers([key2, key1, identityTransformer]);
  assert.deepEqual(rotated.fromStorage(fromKey1, KEY), plain);
  assert.deepEqual(rotated.fromStorage(plain, KEY), plain);
  assert.match(rotated.toStorage(plain, KEY).toString('latin1'), /^k8s:enc:aescbc:v1:key2:/);
  // Turning encryption off: identity first writes plain and passes encrypted values on to their key.
  const off = new PrefixTransformers([identityTransformer, key1]);
  assert.deepEqual(off.toStorage(plain, KEY), plain);
  assert.deepEqual(off.fromStorage(fromKey1, KEY), plain);
  // Without the key a value was written with, nothing reads it: identity refuses encrypted bytes.
  const lost = new PrefixTransformers([key2, identityTransformer]);
  assert.throws(() => lost.fromStorage(fromKey1, KEY), /identity transformer tried to read encrypted data/);
  const noIdentity = new PrefixTransformers([key2]);
  assert.throws(() => noIdentity.fromStorage(plain, KEY), /no matching prefix found/);
});
