import { createCipheriv, createDecipheriv } from 'node:crypto';

export const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** nonce ‖ tag ‖ AES-256-GCM(plaintext), `aad` authenticated. */
export function aesGcmEncrypt(key: Buffer, plaintext: Buffer, aad: string, nonce: Buffer): Buffer {
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(aad));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([nonce, cipher.getAuthTag(), body]);
}

export function aesGcmDecrypt(key: Buffer, sealed: Buffer, aad: string): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, NONCE_BYTES));
  decipher.setAAD(Buffer.from(aad));
  decipher.setAuthTag(sealed.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(sealed.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]);
}
