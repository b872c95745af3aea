import { developmentKeyRingFile, decodeKey32, parseKeyList, parseKeyRing, sealKeyOf } from './key-ring';
import { readFileSync } from 'node:fs';
import { x25519Target } from './data-key-wrap';
import { SecretSealer } from './secret-sealer';
import { refusePublishedKeys } from './published-keys';

/** `STARSGATE_SEAL_KEY`: `id:base64` of the X25519 public key the gateway seals new secrets to. */
export function parseSealKey(value: string): SecretSealer {
  const entries = parseKeyList('STARSGATE_SEAL_KEY', value);
  if (entries.length !== 1) throw new Error('STARSGATE_SEAL_KEY holds exactly one public key (`id:base64`)');
  const { id, value: encoded } = entries[0]!;
  return new SecretSealer(x25519Target(id, decodeKey32('STARSGATE_SEAL_KEY', id, encoded)));
}

export interface LoadSealerOptions {
  sealKey: string | undefined;
  /** `STARSGATE_SECRET_KEY` in the gateway's environment: refused in production, tolerated in development. */
  secretKey: string | undefined;
  dataDir: string;
  production: boolean;
  warn: (message: string) => void;
}

/**
 * The gateway's sealer. It gets only the public key, so a compromised gateway cannot open what it
 * stored. Development without keys uses the public half of the generated ring in `<dataDir>`.
 */
export function loadSealer(options: LoadSealerOptions): SecretSealer {
  if (options.production && options.secretKey) {
    throw new Error(
      'STARSGATE_SECRET_KEY belongs to the worker only: give the gateway STARSGATE_SEAL_KEY (`starsgate keys public`)',
    );
  }
  if (options.sealKey) {
    if (options.production) refusePublishedKeys('STARSGATE_SEAL_KEY', options.sealKey);
    return parseSealKey(options.sealKey);
  }
  if (options.production) {
    throw new Error('STARSGATE_SEAL_KEY is required in production: `starsgate keys public` prints it');
  }
  if (options.secretKey) {
    const ring = parseKeyRing(options.secretKey);
    const primary = ring.keys.get(ring.primaryId)!;
    options.warn(
      'the gateway got STARSGATE_SECRET_KEY: it should get only STARSGATE_SEAL_KEY (development only tolerates this)',
    );
    if (primary.kind === 'aes') return new SecretSealer({ keyId: ring.primaryId, kind: 'aes', key: primary.key });
    return new SecretSealer(x25519Target(ring.primaryId, primary.publicRaw));
  }
  const file = developmentKeyRingFile(options.dataDir);
  options.warn(
    `STARSGATE_SEAL_KEY is not set: sealing to the development key in ${file}. Never run production like this.`,
  );
  return parseSealKey(sealKeyOf(parseKeyRing(readFileSync(file, 'utf8').trim())));
}
