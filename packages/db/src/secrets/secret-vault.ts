import { aesGcmDecrypt } from './aes-gcm';
import { unwrapDataKey, wrapDataKey, type WrapTarget } from './data-key-wrap';
import type { KeyRing, RingKey } from './key-ring';
import { sealSecret, secretAad, type SealedSecret, type SecretSealing } from './secret-sealer';
import { x25519PublicKey } from './x25519';

export type { SealedSecret } from './secret-sealer';

/** The worker's side: opens secrets to sign, seals to the ring's primary key, re-wraps for rotation. */
export class SecretVault implements SecretSealing {
  private readonly target: WrapTarget;

  constructor(private readonly ring: KeyRing) {
    const primary = this.key(ring.primaryId);
    this.target =
      primary.kind === 'aes'
        ? { keyId: ring.primaryId, kind: 'aes', key: primary.key }
        : {
            keyId: ring.primaryId,
            kind: 'x25519',
            publicKey: x25519PublicKey(primary.publicRaw),
            publicRaw: primary.publicRaw,
          };
  }

  get primaryKeyId(): string {
    return this.ring.primaryId;
  }

  get keyIds(): string[] {
    return [...this.ring.keys.keys()];
  }

  private key(keyId: string): RingKey {
    const key = this.ring.keys.get(keyId);
    if (!key) throw new Error(`secret key "${keyId}" is not in STARSGATE_SECRET_KEY`);
    return key;
  }

  seal(recordId: string, secret: string): SealedSecret {
    return sealSecret(this.target, recordId, secret);
  }

  /** Returns the secret's bytes; the caller wipes the buffer (`fill(0)`) once it has signed. */
  open(recordId: string, sealed: SealedSecret): Buffer {
    const dataKey = unwrapDataKey(this.key(sealed.keyId), sealed.keyId, recordId, sealed.wrappedKey);
    try {
      return aesGcmDecrypt(dataKey, sealed.ciphertext, secretAad(recordId));
    } finally {
      dataKey.fill(0);
    }
  }

  /** Key rotation: re-wraps the data key to the primary key without touching the secret's ciphertext. */
  rewrap(recordId: string, sealed: SealedSecret): SealedSecret {
    if (sealed.keyId === this.ring.primaryId) return sealed;
    const dataKey = unwrapDataKey(this.key(sealed.keyId), sealed.keyId, recordId, sealed.wrappedKey);
    try {
      return {
        keyId: this.target.keyId,
        wrappedKey: wrapDataKey(this.target, recordId, dataKey),
        ciphertext: sealed.ciphertext,
      };
    } finally {
      dataKey.fill(0);
    }
  }
}
