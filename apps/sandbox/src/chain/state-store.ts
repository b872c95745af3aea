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

/** Writes atomically (temp file + rename) so a crash never leaves a torn state file. */
export async function saveChainState(dataDir: string, state: PersistedChainState): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  const file = join(dataDir, STATE_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(state));
  await rename(tmp, file);
}
