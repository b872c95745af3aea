import type { SecretVault } from '@starsgate/db';
import type { CookieCodec } from '@starsgate/fragment';

/**
 * Fragment's cookies are a login's credentials: in Redis they are sealed to the key ring like
 * wallet secrets (docs/fragment-protocol.md §20.2), so a copy of Redis holds no usable login.
 */
export function fragmentCookieCodec(vault: SecretVault): CookieCodec {
  const recordId = (name: string) => `fragment-cookie:${name}`;
  return {
    seal: (name, value) => {
      const sealed = vault.seal(recordId(name), value);
      return JSON.stringify({
        keyId: sealed.keyId,
        wrappedKey: sealed.wrappedKey.toString('base64'),
        ciphertext: sealed.ciphertext.toString('base64'),
      });
    },
    open: (name, stored) => {
      const parsed = JSON.parse(stored) as { keyId: string; wrappedKey: string; ciphertext: string };
      const bytes = vault.open(recordId(name), {
        keyId: parsed.keyId,
        wrappedKey: Buffer.from(parsed.wrappedKey, 'base64'),
        ciphertext: Buffer.from(parsed.ciphertext, 'base64'),
      });
      try {
        return bytes.toString('utf8');
      } finally {
        bytes.fill(0);
      }
    },
  };
}
