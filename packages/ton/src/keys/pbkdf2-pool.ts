import { pbkdf2 } from 'node:crypto';
import { AppError } from '@starsgate/domain';

/**
 * PBKDF2-HMAC-SHA512 on libuv's thread pool (node:crypto's async `pbkdf2`), never on the event
 * loop. At most `MAX_PARALLEL` run at once so key derivation cannot occupy the whole pool (4
 * threads by default, shared with fs and dns.lookup); at most `MAX_WAITING` more may queue, beyond
 * which callers get WALLET_RESOLVER_BUSY (503) instead of unbounded latency.
 */
const MAX_PARALLEL = 2;
const MAX_WAITING = 256;

let running = 0;
const waiting: Array<() => void> = [];

async function acquire(): Promise<void> {
  if (running < MAX_PARALLEL) {
    running += 1;
    return;
  }
  if (waiting.length >= MAX_WAITING) throw new AppError('WALLET_RESOLVER_BUSY');
  await new Promise<void>((resolve) => waiting.push(resolve));
}

function release(): void {
  const next = waiting.shift();
  if (next) next();
  else running -= 1;
}

export async function pbkdf2Sha512(
  password: Buffer,
  salt: Buffer,
  iterations: number,
  keyLength = 64,
): Promise<Buffer> {
  await acquire();
  try {
    return await new Promise<Buffer>((resolve, reject) => {
      pbkdf2(password, salt, iterations, keyLength, 'sha512', (error, key) => (error ? reject(error) : resolve(key)));
    });
  } finally {
    release();
  }
}
