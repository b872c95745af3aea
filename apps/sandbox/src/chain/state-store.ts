import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { snapshotToSerializable } from '@ton/sandbox';
import type { SerializedIndexEntry } from './transaction-index';

/** On-disk chain state: the sandbox snapshot (without its transaction list) plus our index. */
export interface PersistedChainState {
  version: 1;
  savedAt: string;
  blockSeqno: number;
  lastBlockNow: number;
  usdtMaster: string;
  snapshot: ReturnType<typeof snapshotToSerializable>;
  transactions: SerializedIndexEntry[];
}

export const STATE_FILE = 'chain-state.json';

export async function loadChainState(dataDir: string): Promise<PersistedChainState | null> {
  let text: string;
  try {
    text = await readFile(join(dataDir, STATE_FILE), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const state = JSON.parse(text) as PersistedChainState;
  if (state.version !== 1) throw new Error(`unsupported sandbox state version ${String(state.version)} in ${dataDir}`);
  return state;
}

/** The write under way per data dir: saves of one dir run one after another, in call order. */
const writes = new Map<string, Promise<void>>();

/**
 * Writes atomically (temp file + rename) so a crash never leaves a torn state file. Overlapping
 * saves (the periodic one while close saves) are queued: they share the temp file name, and the
 * later snapshot must land last.
 */
export function saveChainState(dataDir: string, state: PersistedChainState): Promise<void> {
  const previous = writes.get(dataDir) ?? Promise.resolve();
  const write = previous.then(
    () => writeChainState(dataDir, state),
    () => writeChainState(dataDir, state),
  );
  writes.set(dataDir, write);
  const forget = () => {
    if (writes.get(dataDir) === write) writes.delete(dataDir);
  };
  write.then(forget, forget);
  return write;
}

async function writeChainState(dataDir: string, state: PersistedChainState): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  const file = join(dataDir, STATE_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(state));
  await rename(tmp, file);
}
