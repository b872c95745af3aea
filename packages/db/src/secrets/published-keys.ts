import { parseKeyList } from './key-ring';

/**
 * Keys published in this repository (the sandbox overlay's demo secrets): anyone can open what
 * they seal or forge what they sign. `k8s/overlays/sandbox/demo-secrets/` guards only the
 * sandbox's public demo wallets. Values are the Base64 key material, as the variables spell it.
 */
const PUBLISHED_WHERE = 'k8s/overlays/sandbox/demo-secrets/';
const PUBLISHED_KEYS = new Set([
  // STARSGATE_SECRET_KEY: the X25519 private key k2 and the legacy symmetric key k1
  'c2FuZGJveC1kZW1vLXgyNTUxOS1ub3Qtc2VjcmV0ISE=',
  'c2FuZGJveC1kZW1vLWtleS1ub3QtYS1zZWNyZXQtISE=',
  // STARSGATE_SEAL_KEY: k2's public half (its private half is above)
  'nFdw9v0zKc4vc7EyTAXyE3c7jPR+B2muYujJEUC4qHI=',
  // STARSGATE_FINGERPRINT_KEY
  'c2FuZGJveC1kZW1vLWZpbmdlcnByaW50LWtleSEhISE=',
]);

/**
 * Production refuses a key list (`id:value,…`, an X25519 entry tagged `x25519:`) holding a
 * published key (docs/security.md, attack 16).
 */
export function refusePublishedKeys(variable: string, value: string): void {
  for (const entry of parseKeyList(variable, value)) {
    const material = entry.value.replace(/^x25519:/, '');
    if (PUBLISHED_KEYS.has(material))
      throw new Error(
        `${variable}: key "${entry.id}" is a published sandbox key from ${PUBLISHED_WHERE}; anyone can ` +
          'use it. Generate your own with `starsgate keys generate` (docs/security.md)',
      );
  }
}
