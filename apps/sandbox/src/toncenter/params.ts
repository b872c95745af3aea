import { Address, Cell } from '@ton/core';
import { badRequest } from './toncenter-errors';

export type Params = Record<string, unknown>;

/** Address in any form toncenter accepts (raw `0:hex`, friendly base64 or base64url). */
export function parseAddress(value: unknown, name = 'address'): Address {
  if (typeof value !== 'string' || value.length === 0) throw badRequest(`${name} is required`);
  try {
    return Address.parse(value.trim());
  } catch {
    throw badRequest(`${name}: invalid address ${JSON.stringify(value).slice(0, 80)}`);
  }
}

/** A 32-byte hash given as hex, base64 or base64url. */
export function parseHash(value: unknown, name = 'hash'): Buffer {
  if (typeof value !== 'string') throw badRequest(`${name} is required`);
  // An unencoded '+' in a query string arrives as a space.
  const v = value.trim().replace(/ /g, '+');
  let buf: Buffer | undefined;
  if (/^[0-9a-fA-F]{64}$/.test(v)) buf = Buffer.from(v, 'hex');
  else if (/^[A-Za-z0-9+/_-]{43}=?$/.test(v)) buf = Buffer.from(v.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (!buf || buf.length !== 32) throw badRequest(`${name}: expected a 32-byte hash in hex or base64`);
  return buf;
}

/** A query or body value that must be one scalar (a repeated query key arrives as an array). */
export function scalarParam(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  throw badRequest(`${name} must be a single value`);
}

export function optionalInt(
  value: unknown,
  name: string,
  { min = 0, max = Number.MAX_SAFE_INTEGER } = {},
): number | undefined {
  const text = scalarParam(value, name);
  if (text === undefined || text === '') return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max) throw badRequest(`${name} must be an integer in ${min}..${max}`);
  return n;
}

export function optionalBigint(value: unknown, name: string): bigint | undefined {
  const s = scalarParam(value, name);
  if (s === undefined || s === '') return undefined;
  if (!/^\d+$/.test(s)) throw badRequest(`${name} must be a non-negative integer`);
  return BigInt(s);
}

export function parseBocCell(value: unknown, name: string): Cell {
  if (typeof value !== 'string' || value === '') throw badRequest(`${name} is required`);
  try {
    const [cell] = Cell.fromBoc(Buffer.from(value, 'base64'));
    if (!cell) throw new Error('empty');
    return cell;
  } catch {
    throw badRequest(`${name}: failed to deserialize BOC`);
  }
}

/** Query values that may repeat (`?address=a&address=b`) or be comma separated (`?address=a,b`). */
export function listParam(value: unknown): string[] {
  const items = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return items
    .flatMap((v) => String(v).split(','))
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

export const b64 = (buf: Buffer): string => buf.toString('base64');
