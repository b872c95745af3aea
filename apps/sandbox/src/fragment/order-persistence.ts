import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Address, Cell } from '@ton/core';
import type { DeliveredOrder, Order } from './orders';

/**
 * The simulator's world on disk beside the chain's (`chain-state.json`), so a restarted sandbox
 * keeps the orders it made and the history it showed: an order in flight is still delivered, and
 * a recent one still lists in its account's history (docs/fragment-protocol.md §21). Addresses are raw, cells base64 BOCs, bigints decimal strings.
 */
export const FRAGMENT_STATE_FILE = 'fragment-state.json';

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

export interface PersistedFragmentState {
  version: 1;
  savedAt: string;
  /** Every order, in creation order. */
  orders: Json[];
  /** Refs of the delivered orders, in delivery order (their history ids are their positions). */
  deliveredRefs: string[];
  delivered: DeliveredOrder[];
}

/** Addresses, cells and bigints as JSON; everything else as it is. */
function encode(value: unknown): Json {
  if (value instanceof Address) return { $address: value.toRawString() };
  if (value instanceof Cell) return { $cell: value.toBoc().toString('base64') };
  if (typeof value === 'bigint') return { $bigint: value.toString() };
  if (Array.isArray(value)) return value.map(encode);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, encode(v)]),
    );
  return value as Json;
}

function decode(value: Json): unknown {
  if (Array.isArray(value)) return value.map(decode);
  if (value && typeof value === 'object') {
    if (typeof value.$address === 'string') return Address.parseRaw(value.$address);
    if (typeof value.$cell === 'string') return Cell.fromBase64(value.$cell);
    if (typeof value.$bigint === 'string') return BigInt(value.$bigint);
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decode(v)]));
  }
  return value;
}

export function encodeOrder(order: Order): Json {
  return encode(order);
}

export function decodeOrder(json: Json): Order {
  return decode(json) as Order;
}

export async function loadFragmentState(dataDir: string): Promise<PersistedFragmentState | null> {
  let text: string;
  try {
    text = await readFile(join(dataDir, FRAGMENT_STATE_FILE), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const state = JSON.parse(text) as PersistedFragmentState;
  if (state.version !== 1)
    throw new Error(`unsupported Fragment simulator state version ${String(state.version)} in ${dataDir}`);
  return state;
}

/** Atomic (temp file + rename), so a crash never leaves a torn file; writes of one dir run in call order. */
let writing: Promise<void> = Promise.resolve();
export function saveFragmentState(dataDir: string, state: PersistedFragmentState): Promise<void> {
  const write = async () => {
    await mkdir(dataDir, { recursive: true });
    const file = join(dataDir, FRAGMENT_STATE_FILE);
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(state));
    await rename(tmp, file);
  };
  writing = writing.then(write, write);
  return writing;
}
