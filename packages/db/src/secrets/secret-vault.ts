import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { KeyRing } from './key-ring';

export interface SealedSecret {
  keyId: string;
  /** nonce ‖ tag ‖ AES-256-GCM(data key) under the key-encryption key. */
  wrappedKey: Buffer;
  /** nonce ‖ tag ‖ AES-256-GCM(secret) under the data key. */
  ciphertext: Buffer;
}

const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const DATA_KEY_BYTES = 32;

function encrypt(key: Buffer, plaintext: Buffer, aad: string, nonce: Buffer): Buffer {
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(aad));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([nonce, cipher.getAuthTag(), body]);
}

function decrypt(key: Buffer, sealed: Buffer, aad: string): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, NONCE_BYTES));
  decipher.setAAD(Buffer.from(aad));
  decipher.setAuthTag(sealed.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(sealed.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]);
}

/**
 * Envelope encryption for wallet secrets (OWASP cryptographic storage): a random data key
 * per record, wrapped by a key-encryption key from the key ring. The record id is bound as
 * authenticated data, so ciphertexts cannot be swapped between rows.
 */
export class SecretVault {
  /** Derived once per key id: HKDF on every request was a measurable share of intake CPU. */
  private readonly fingerprintKeys = new Map<string, Buffer>();

  constructor(private readonly ring: KeyRing) {}

  get primaryKeyId(): string {
    return this.ring.primaryId;
  }

  private kek(keyId: string): Buffer {
    const key = this.ring.keys.get(keyId);
    if (!key) throw new Error(`secret key "${keyId}" is not in STARSGATE_SECRET_KEY`);
    return key;
  }

  seal(recordId: string, secret: string): SealedSecret {
    const keyId = this.ring.primaryId;
    // One call for the data key and both nonces: each randomBytes call has a fixed cost that showed in intake profiles.
    const random = randomBytes(DATA_KEY_BYTES + 2 * NONCE_BYTES);
    const dataKey = random.subarray(0, DATA_KEY_BYTES);
    const plaintext = Buffer.from(secret, 'utf8');
    try {
      return {
        keyId,
        wrappedKey: encrypt(
          this.kek(keyId),
          dataKey,
          `wallet-secret-key:${recordId}:${keyId}`,
          random.subarray(DATA_KEY_BYTES, DATA_KEY_BYTES + NONCE_BYTES),
        ),
        ciphertext: encrypt(
          dataKey,
          plaintext,
          `wallet-secret:${recordId}`,
          random.subarray(DATA_KEY_BYTES + NONCE_BYTES),
        ),
      };
    } finally {
      random.fill(0);
      plaintext.fill(0);
    }
  }

  /** Returns the secret's bytes; the caller wipes the buffer (`fill(0)`) once it has signed. */
  open(recordId: string, sealed: SealedSecret): Buffer {
    const dataKey = decrypt(this.kek(sealed.keyId), sealed.wrappedKey, `wallet-secret-key:${recordId}:${sealed.keyId}`);
    try {
      return decrypt(dataKey, sealed.ciphertext, `wallet-secret:${recordId}`);
    } finally {
      dataKey.fill(0);
    }
  }

  /** Key rotation: re-wraps the data key under the primary key without touching the secret. */
  rewrap(recordId: string, sealed: SealedSecret): SealedSecret {
    if (sealed.keyId === this.ring.primaryId) return sealed;
    const dataKey = decrypt(this.kek(sealed.keyId), sealed.wrappedKey, `wallet-secret-key:${recordId}:${sealed.keyId}`);
    try {
      const keyId = this.ring.primaryId;
      return {
        keyId,
        wrappedKey: encrypt(
          this.kek(keyId),
          dataKey,
          `wallet-secret-key:${recordId}:${keyId}`,
          randomBytes(NONCE_BYTES),
        ),
        ciphertext: sealed.ciphertext,
      };
    } finally {
      dataKey.fill(0);
    }
  }

  /**
   * Keyed hash for idempotency fingerprints: lets two requests be compared without storing
   * anything from which the secret could be recovered or brute-forced offline.
   */
  fingerprint(parts: readonly string[], keyId: string = this.ring.primaryId): string {
    let key = this.fingerprintKeys.get(keyId);
    if (!key) {
      key = Buffer.from(hkdfSync('sha256', this.kek(keyId), Buffer.alloc(0), 'starsgate/request-fingerprint/v1', 32));
      this.fingerprintKeys.set(keyId, key);
    }
    const hmac = createHmac('sha256', key);
    for (const part of parts) hmac.update(`${part.length}:${part}`);
    return hmac.digest('hex');
  }
}
