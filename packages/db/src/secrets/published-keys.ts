import type { KeyRing } from './key-ring';

/**
 * Key-encryption keys published in this repository: anyone can read a secret sealed with one.
 * `k8s/overlays/sandbox/demo-secrets.env` guards only the sandbox's public demo wallets.
 */
const PUBLISHED_KEYS: ReadonlyArray<{ base64: string; where: string }> = [
  { base64: 'c2FuZGJveC1kZW1vLWtleS1ub3QtYS1zZWNyZXQtISE=', where: 'k8s/overlays/sandbox/demo-secrets.env' },
];

/** Production refuses a key ring holding a published key (docs/security.md, attack 16). */
export function refusePublishedKeys(ring: KeyRing): void {
  for (const [id, key] of ring.keys) {
    const published = PUBLISHED_KEYS.find((candidate) => candidate.base64 === key.toString('base64'));
    if (published)
      throw new Error(
        `STARSGATE_SECRET_KEY: key "${id}" is the published sandbox key from ${published.where}; anyone can ` +
          'decrypt what it seals. Set your own: "k1:<base64 of 32 random bytes>" (openssl rand -base64 32)',
      );
  }
}
