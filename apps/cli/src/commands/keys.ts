import { randomBytes } from 'node:crypto';
import {
  connectDatabase,
  generateRingEntry,
  keyUsage,
  parseKeyRing,
  rewrapAllSecrets,
  SecretVault,
  sealKeyOf,
  type KeyUsage,
} from '@starsgate/db';
import { table } from '../output';
import type { CommandResult } from './command';

/** A `keys` command missing its environment: a usage error, not an API one. */
export class KeysEnvironmentError extends Error {}

function required(env: NodeJS.ProcessEnv, name: string, why: string): string {
  const value = env[name];
  if (!value) throw new KeysEnvironmentError(`${name} is required: ${why}`);
  return value;
}

/** A new worker key, its public half for the gateway and a fingerprint key (docs/security.md). */
export function generateKeys(id: string | undefined): CommandResult {
  const keyId = id ?? `k${new Date().toISOString().slice(0, 10).replaceAll('-', '')}`;
  const entry = generateRingEntry(keyId);
  const keys = {
    STARSGATE_SECRET_KEY: entry,
    STARSGATE_SEAL_KEY: sealKeyOf(parseKeyRing(entry)),
    STARSGATE_FINGERPRINT_KEY: `f${keyId}:${randomBytes(32).toString('base64')}`,
  };
  const text = [
    '# Worker only (a secret): put it FIRST in STARSGATE_SECRET_KEY, keep the older keys after it.',
    `STARSGATE_SECRET_KEY=${keys.STARSGATE_SECRET_KEY}`,
    '# Gateway only (public): the key it seals new secrets to.',
    `STARSGATE_SEAL_KEY=${keys.STARSGATE_SEAL_KEY}`,
    '# Gateway only (a secret), for a new installation; when rotating, put it first and keep the old ids.',
    `STARSGATE_FINGERPRINT_KEY=${keys.STARSGATE_FINGERPRINT_KEY}`,
  ].join('\n');
  return { json: keys, text };
}

/** `STARSGATE_SEAL_KEY` for the gateway, from the worker's `STARSGATE_SECRET_KEY`. */
export function publicKey(env: NodeJS.ProcessEnv): CommandResult {
  const ring = parseKeyRing(required(env, 'STARSGATE_SECRET_KEY', "the worker's key ring"));
  const sealKey = sealKeyOf(ring);
  return { json: { STARSGATE_SEAL_KEY: sealKey }, text: `STARSGATE_SEAL_KEY=${sealKey}` };
}

function usageRows(usage: KeyUsage, configured: readonly string[], primary: string | undefined): CommandResult {
  const ids = [...new Set([...configured, ...Object.keys(usage.walletSecrets), ...Object.keys(usage.webhookSecrets)])];
  const rows = ids.map((keyId) => {
    const walletSecrets = usage.walletSecrets[keyId] ?? 0;
    const webhookSecrets = usage.webhookSecrets[keyId] ?? 0;
    return {
      key_id: keyId,
      primary: keyId === primary,
      configured: configured.length === 0 ? null : configured.includes(keyId),
      wallet_secrets: walletSecrets,
      webhook_secrets: webhookSecrets,
      removable: keyId !== primary && walletSecrets + webhookSecrets === 0,
    };
  });
  const text = [
    table(rows, ['key_id', 'primary', 'configured', 'wallet_secrets', 'webhook_secrets', 'removable']),
    '',
    'A key can leave STARSGATE_SECRET_KEY once both counts are 0 (`starsgate keys rewrap` gets them there).',
  ].join('\n');
  return { json: { keys: rows }, text };
}

async function withDatabase<T>(
  env: NodeJS.ProcessEnv,
  use: (db: ReturnType<typeof connectDatabase>) => Promise<T>,
): Promise<T> {
  const database = connectDatabase(required(env, 'DATABASE_URL', 'the keys commands read the database directly'), {
    max: 2,
    applicationName: 'starsgate-cli-keys',
    // The services' DATABASE_URL may be PgBouncer in transaction mode (docs/deployment.md "Connection budget").
    transactionPooler: env.DATABASE_POOLER === 'transaction',
  });
  try {
    return await use(database);
  } finally {
    await database.close();
  }
}

/** Live secrets per key id (wallet secrets not yet wiped, webhook signing secrets). */
export async function keysStatus(env: NodeJS.ProcessEnv): Promise<CommandResult> {
  const ring = env.STARSGATE_SECRET_KEY ? parseKeyRing(env.STARSGATE_SECRET_KEY) : undefined;
  const usage = await withDatabase(env, (database) => keyUsage(database.db));
  return usageRows(usage, ring ? [...ring.keys.keys()] : [], ring?.primaryId);
}

/** Re-wraps every live wallet secret and webhook secret to the primary key of STARSGATE_SECRET_KEY. */
export async function rewrapKeys(env: NodeJS.ProcessEnv): Promise<CommandResult> {
  const vault = new SecretVault(
    parseKeyRing(required(env, 'STARSGATE_SECRET_KEY', "the worker's key ring, the new key first")),
  );
  return withDatabase(env, async (database) => {
    const moved = await rewrapAllSecrets(database.db, vault);
    const status = usageRows(await keyUsage(database.db), vault.keyIds, vault.primaryKeyId);
    return {
      json: {
        rewrapped: { wallet_secrets: moved.walletSecrets, webhook_secrets: moved.webhookSecrets },
        ...(status.json as object),
      },
      text: `re-wrapped to ${vault.primaryKeyId}: ${moved.walletSecrets} wallet secrets, ${moved.webhookSecrets} webhook secrets\n\n${status.text}`,
    };
  });
}
