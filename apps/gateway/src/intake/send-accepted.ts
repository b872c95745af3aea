import type { Response } from 'express';
import { sendJson } from '../http/send-json';

/**
 * The answer of every order kind's intake: 202 with the order's status URL in the body and in
 * `Location`; a replay of a stored order says so (`Idempotent-Replayed: true`).
 */
export function sendAccepted(res: Response, accepted: { status_url: string }, replayed: boolean): void {
  if (replayed) res.setHeader('Idempotent-Replayed', 'true');
  res.setHeader('Location', accepted.status_url);
  sendJson(res, 202, accepted);
}
