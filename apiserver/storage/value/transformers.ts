/**
 * Encryption at rest of stored values, as Kubernetes' storage/value: a resource's values pass through
 * a list of providers. Writes use the first; a read picks the provider whose prefix the stored bytes
 * start with (`k8s:enc:aesgcm:v1:<key name>:`, `k8s:enc:aescbc:v1:<key name>:`), and identity (no
 * prefix, the bytes as they are) reads what no other prefix claims, so data written before
 * encryption was turned on, or after it was turned off, stays readable.
 *
 * aesgcm: a random 12-byte nonce, then AES-GCM of the value with the storage key as additional
 * authenticated data (a value copied under another key does not decrypt), then the 16-byte tag.
 * aescbc: a random 16-byte IV, then AES-CBC of the value with PKCS#7 padding. The key sizes are
 * AES's: 16, 24 or 32 bytes.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export interface Transformer {
  /** What the stored bytes start with ('' for identity). */
  readonly prefix: string;
  /** The stored form of value (the prefix included). */
  toStorage(value: Buffer, key: string): Buffer;
  /** The value from its stored form with the prefix removed; throws when it does not decrypt. */
  fromStorage(data: Buffer, key: string): Buffer;
}

/** The bytes every encrypted value starts with: identity refuses to read them as plain. */
const ENCRYPTED = Buffer.from('k8s:enc:');

export const AES_KEY_SIZES = [16, 24, 32];

export const identityTransformer: Transformer = {
  prefix: '',
  toStorage: (value) => value,
  fromStorage(data) {
    if (data.subarray(0, ENCRYPTED.length).equals(ENCRYPTED)) throw new Error('identity transformer tried to read encrypted data');
    return data;
  },
};

function aesAlgorithm(mode: 'gcm' | 'cbc', secret: Buffer): string {
  if (!AES_KEY_SIZES.includes(secret.length)) throw new Error(`an AES key is 16, 24 or 32 bytes, not ${secret.length}`);
  return `aes-${secret.length * 8}-${mode}`;
}

export function aesGcmTransformer(name: string, secret: Buffer): Transformer {
  const algorithm = aesAlgorithm('gcm', secret);
  const prefix = `k8s:enc:aesgcm:v1:${name}:`;
  const head = Buffer.from(prefix);
  return {
    prefix,
    toStorage(value, key) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv(algorithm as 'aes-256-gcm', secret, nonce);
      cipher.setAAD(Buffer.from(key));
      const body = Buffer.concat([cipher.update(value), cipher.final()]);
      return Buffer.concat([head, nonce, body, cipher.getAuthTag()]);
    },
    fromStorage(data, key) {
      if (data.length < 12 + 16) throw new Error('the stored data was shorter than the required size');
      const decipher = createDecipheriv(algorithm as 'aes-256-gcm', secret, data.subarray(0, 12));
      decipher.setAAD(Buffer.from(key));
      decipher.setAuthTag(data.subarray(data.length - 16));
      return Buffer.concat([decipher.update(data.subarray(12, data.length - 16)), decipher.final()]);
    },
  };
}

export function aesCbcTransformer(name: string, secret: Buffer): Transformer {
  const algorithm = aesAlgorithm('cbc', secret);
  const prefix = `k8s:enc:aescbc:v1:${name}:`;
  const head = Buffer.from(prefix);
  return {
    prefix,
    toStorage(value) {
      const iv = randomBytes(16);
      const cipher = createCipheriv(algorithm, secret, iv);
      return Buffer.concat([head, iv, cipher.update(value), cipher.final()]);
    },
    fromStorage(data) {
      if (data.length < 32 || data.length % 16 !== 0) throw new Error('the stored data is not a whole number of AES blocks');
      const decipher = createDecipheriv(algorithm, secret, data.subarray(0, 16));
      return Buffer.concat([decipher.update(data.subarray(16)), decipher.final()]);
    },
  };
}

/** A resource's providers in order: the first writes, each reads what carries its prefix. */
export class PrefixTransformers {
  private readonly heads: Buffer[];

  constructor(private readonly transformers: readonly Transformer[]) {
    if (transformers.length === 0) throw new Error('a resource needs at least one provider');
    this.heads = transformers.map((t) => Buffer.from(t.prefix));
  }

  toStorage(value: Buffer, key: string): Buffer {
    return this.transformers[0].toStorage(value, key);
  }

  fromStorage(data: Buffer, key: string): Buffer {
    const errors: string[] = [];
    for (let i = 0; i < this.transformers.length; i++) {
      const head = this.heads[i];
      if (data.length < head.length || !data.subarray(0, head.length).equals(head)) continue;
      try {
        return this.transformers[i].fromStorage(data.subarray(head.length), key);
      } catch (err) {
        // identity first (to decrypt what is stored while writing plain again) passes encrypted data on.
        errors.push(err instanceof Error ? err.message : String(err));
      }
    }
    throw new Error(errors.length > 0 ? `failed to decrypt ${key}: ${errors.join('; ')}` : `no matching prefix found for ${key}`);
  }
}
