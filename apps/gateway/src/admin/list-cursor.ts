import { AppError } from '@starsgate/domain';
import type { KeysetCursor } from '@starsgate/db';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Opaque to clients: base64url of `<µs since epoch>.<id>`. */
export function encodeCursor(cursor: KeysetCursor | null): string | null {
  return cursor ? Buffer.from(`${cursor.createdAtMicros}.${cursor.id}`, 'utf8').toString('base64url') : null;
}

export function decodeCursor(value: string | undefined): KeysetCursor | null {
  if (value === undefined) return null;
  const [micros, id, extra] = Buffer.from(value, 'base64url').toString('utf8').split('.');
  if (extra !== undefined || !micros || !/^\d{1,18}$/.test(micros) || !id || !UUID.test(id))
    throw AppError.field('INVALID_CURSOR', 'cursor');
  return { createdAtMicros: BigInt(micros), id };
}
