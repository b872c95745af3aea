import { randomBytes } from 'node:crypto';
import { aesGcmEncrypt, NONCE_BYTES } from './aes-gcm';
import { wrapDataKey, type WrapTarget } from './data-key-wrap';

export interface SealedSecret {
  keyId: string;
  /** The data key wrapped to `keyId` (data-key-wrap.ts). */
  wrappedKey: Buffer;
  /** nonce ‖ tag ‖ AES-256-GCM(secret) under the data key. */
  ciphertext: Buffer;
}

const DATA_KEY_BYTES = 32;

export function secretAad(recordId: string): string {
  return `wallet-secret:${recordId}`;
}

/**
 * Envelope encryption for wallet and webhook secrets (OWASP cryptographic storage): a random data
 * key per record, wrapped to the key-encryption key. The record id is authenticated data of both
 * layers, so ciphertexts cannot be swapped between rows.
 */
export function sealSecret(target: WrapTarget, recordId: string, secret: string): SealedSecret {
  // One call for the data key and the nonce: each randomBytes call has a fixed cost that showed in intake profiles.
  const random = randomBytes(DATA_KEY_BYTES + NONCE_BYTES);
  const dataKey = random.subarray(0, DATA_KEY_BYTES);
  const plaintext = Buffer.from(secret, 'utf8');
  try {
    return {
      keyId: target.keyId,
      wrappedKey: wrapDataKey(target, recordId, dataKey),
      ciphertext: aesGcmEncrypt(dataKey, plaintext, secretAad(recordId), random.subarray(DATA_KEY_BYTES)),
    };
  } finally {
    random.fill(0);
    plaintext.fill(0);
  }
}

/** What seals a secret without being able to open it again: the gateway's side (docs/security.md). */
export interface SecretSealing {
  readonly primaryKeyId: string;
  seal(recordId: string, secret: string): SealedSecret;
}

export class SecretSealer implements SecretSealing {
  constructor(private readonly target: WrapTarget) {}

  get primaryKeyId(): string {
    return this.target.keyId;
  }

  /** True when this sealer holds only a public key (false: a legacy symmetric key, development only). */
  get isPublicKeyOnly(): boolean {
    return this.target.kind === 'x25519';
  }

  seal(recordId: string, secret: string): SealedSecret {
    return sealSecret(this.target, recordId, secret);
  }
}
