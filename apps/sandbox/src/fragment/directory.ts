/** The simulated Telegram accounts that Fragment's recipient search knows. */

export type RecipientKind = 'user' | 'bot' | 'channel';

export interface RecipientEntry {
  /** Without `@`; matched case-insensitively. */
  username: string;
  /** Display name (HTML-escaped on the wire). */
  name: string;
  kind: RecipientKind;
  /** Already subscribed to Telegram Premium. */
  hasPremium?: boolean;
  /** Cannot receive Stars at this moment. */
  starsBlocked?: boolean;
  /** What this entry exercises (shown by /demo). */
  description: string;
}

export function defaultDirectory(): RecipientEntry[] {
  return [
    { username: 'alice', name: 'Alice Anders', kind: 'user', description: 'Ordinary user: Stars and Premium succeed.' },
    { username: 'bob', name: 'Bob Brown', kind: 'user', description: 'Ordinary user: Stars and Premium succeed.' },
    { username: 'carol', name: 'Carol Chen', kind: 'user', description: 'Ordinary user: Stars and Premium succeed.' },
    { username: 'dave', name: 'Dave Dias', kind: 'user', description: 'Ordinary user: Stars and Premium succeed.' },
    {
      username: 'erin',
      name: "Erin O'Neil",
      kind: 'user',
      description: "Ordinary user whose name needs HTML escaping (O'Neil).",
    },
    {
      username: 'premium_pat',
      name: 'Pat Premium',
      kind: 'user',
      hasPremium: true,
      description: 'Already has Premium: Premium search/init fail with "already subscribed"; Stars succeed.',
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
        'A channel: Premium giveaways succeed; Stars, Premium gifts and top-ups: "Please enter a username assigned to a user."',
    },
    {
      username: 'starsgate_channel',
      name: 'Starsgate Channel',
      kind: 'channel',
      description: 'A channel for Premium giveaways; users and bots get "No Telegram channels found".',
    },
    {
      username: 'starsgate_giveaways',
      name: 'Starsgate Giveaways & Co',
      kind: 'channel',
      description: 'A channel whose name needs HTML escaping (&), for Premium giveaways.',
    },
    {
      username: 'frozen_fay',
      name: 'Fay Frost',
      kind: 'user',
      starsBlocked: true,
      description:
        'Cannot receive Stars now ("You can\'t gift Telegram Stars to this account at this moment."); Premium succeeds.',
    },
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
