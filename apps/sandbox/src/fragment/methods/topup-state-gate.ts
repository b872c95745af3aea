import type { Session } from '../sessions';

/**
 * The `topupSearchNeedsState` fault (docs/fragment-protocol.md §21): the top-up's search answers an error until the session opened a new flow
 * with `updateAdsTopupState {mode: "new"}`, and each init uses that opening up.
 */
const opened = new WeakSet<Session>();

export function openTopupState(session: Session): void {
  opened.add(session);
}

export function topupStateOpen(session: Session): boolean {
  return opened.has(session);
}

export function closeTopupState(session: Session): void {
  opened.delete(session);
}
