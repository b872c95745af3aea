/** The simulated Telegram accounts that Fragment's recipient search knows. */
import type { ProductRecipientFlags } from './products/product-config';
import { allPacks } from './products/registry';

export type RecipientKind = 'user' | 'bot' | 'channel';

/** A simulated account, with each product's own state of it (products/product-config.ts). */
export interface RecipientEntry extends ProductRecipientFlags {
  /** Without `@`; matched case-insensitively. */
  username: string;
  /** Display name (HTML-escaped on the wire). */
  name: string;
  kind: RecipientKind;
  /** What this entry exercises (shown by /demo). */
  description: string;
}

/** The demo accounts: ordinary ones of each kind, then each product's own (its pack's `demoRecipients`). */
export function defaultDirectory(): RecipientEntry[] {
  const ordinary = 'Ordinary user: every product for a user succeeds.';
  return [
    { username: 'alice', name: 'Alice Anders', kind: 'user', description: ordinary },
    { username: 'bob', name: 'Bob Brown', kind: 'user', description: ordinary },
    { username: 'carol', name: 'Carol Chen', kind: 'user', description: ordinary },
    { username: 'dave', name: 'Dave Dias', kind: 'user', description: ordinary },
    {
      username: 'erin',
      name: "Erin O'Neil",
      kind: 'user',
      description: "Ordinary user whose name needs HTML escaping (O'Neil).",
    },
    {
      username: 'helper_bot',
      name: 'Helper Bot',
      kind: 'bot',
      description: 'A bot: "Please enter a username assigned to a user."',
    },
    {
      username: 'news_channel',
      name: 'News Channel',
      kind: 'channel',
      description:
        'A channel: every product for a channel succeeds; those for a user: "Please enter a username assigned to a user."',
    },
    ...allPacks().flatMap((pack) => pack.demoRecipients ?? []),
  ];
}

export function normalizeUsername(query: string): string {
  let q = query.trim();
  q = q.replace(/^(?:https?:\/\/)?(?:www\.)?(?:t\.me|telegram\.me)\//i, '');
  q = q.replace(/^@/, '');
  q = q.replace(/[/?#].*$/, '');
  return q.toLowerCase();
}

export class RecipientDirectory {
  private readonly entries = new Map<string, RecipientEntry>();

  constructor(entries: RecipientEntry[] = defaultDirectory()) {
    this.replace(entries);
  }

  list(): RecipientEntry[] {
    return [...this.entries.values()].map((e) => ({ ...e }));
  }

  /** Looks up by username, `@username` or `t.me/username` (case-insensitive). */
  get(query: string): RecipientEntry | undefined {
    const entry = this.entries.get(normalizeUsername(query));
    return entry && { ...entry };
  }

  set(entry: RecipientEntry): void {
    const username = normalizeUsername(entry.username);
    if (!/^[a-z0-9_]{3,32}$/.test(username)) throw new Error(`invalid username ${entry.username}`);
    if (!['user', 'bot', 'channel'].includes(entry.kind)) throw new Error(`invalid kind ${entry.kind}`);
    this.entries.set(username, { ...entry, username });
  }

  remove(username: string): boolean {
    return this.entries.delete(normalizeUsername(username));
  }

  replace(entries: RecipientEntry[]): void {
    this.entries.clear();
    for (const entry of entries) this.set(entry);
  }
}
