import type { RecipientEntry } from '../directory';
import { FragmentErrors } from '../errors';
import { escapeHtml } from '../html';
import type { Session } from '../sessions';
import type { SimProductPack } from '../products/pack';
import { type CallContext, fail, type SimulatorContext } from './context';

/** A user's or bot's token is 64 characters, a channel's about 43 (protocol reference, "Evidence, 2026-11-28"). */
const TOKEN = /^(?:[A-Za-z0-9_-]{64}|[A-Za-z0-9_-]{43})$/;

function tokenBytes(entry: RecipientEntry): number {
  return entry.kind === 'channel' ? 32 : 48;
}

/** 64-char base64url `recipient` token, stable per username per session (docs/fragment-protocol.md §14.2). */
export function recipientToken(sim: SimulatorContext, session: Session, entry: RecipientEntry): string {
  const username = entry.username.toLowerCase();
  const token = sim.random.derive(`recipient:${session.ssid}:${username}`, tokenBytes(entry)).toString('base64url');
  session.recipients.set(token, username);
  return token;
}

/** Resolves a `recipient` token issued to this session (or derivable for it) to a directory entry. */
export function resolveRecipient(
  sim: SimulatorContext,
  session: Session,
  token: string | undefined,
): RecipientEntry | undefined {
  if (!token) return undefined;
  const known = session.recipients.get(token);
  if (known) return sim.directory.get(known);
  if (!TOKEN.test(token)) return undefined;
  return sim.directory
    .list()
    .find(
      (e) =>
        sim.random.derive(`recipient:${session.ssid}:${e.username}`, tokenBytes(e)).toString('base64url') === token,
    );
}

function lookup(call: CallContext): RecipientEntry | undefined {
  const query = (call.body['query'] ?? '').trim();
  if (!query) return undefined;
  return TOKEN.test(query) ? resolveRecipient(call.sim, call.session, query) : call.sim.directory.get(query);
}

function found(call: CallContext, entry: RecipientEntry) {
  return {
    ok: true,
    found: {
      myself: false,
      recipient: recipientToken(call.sim, call.session, entry),
      photo: `<img src="https://cdn4.cdn-telegram.org/file/sandbox-${entry.username}.jpg" />`,
      name: escapeHtml(entry.name),
    },
  };
}

/** `search…Recipient {query}` of a product: the account, or the product's refusal. */
export function searchFor(call: CallContext, pack: SimProductPack): Record<string, unknown> {
  const entry = lookup(call);
  const refused = pack.recipientError(entry, 'search', call.sim.config());
  if (refused !== undefined || !entry) return fail(refused ?? FragmentErrors.notFound);
  return found(call, entry);
}
