import { fragmentDecimal } from './amounts';
import { FragmentError } from './errors';
import { decimalText, scalarText } from './json-values';
import { METHOD_NAME } from './request-validation';
import type { FragmentTransaction, FragmentTransactionMessage } from './types';

/** Fragment's answers to `init…Request` and `get…Link`. */

/** `get…Link`'s answer → the TonConnect request to sign and how to confirm it; drift → UNEXPECTED_RESPONSE. */
export function parseTransaction(json: Record<string, unknown>, method: string): FragmentTransaction {
  const drift = (what: string): FragmentError =>
    new FragmentError('UNEXPECTED_RESPONSE', `Fragment ${method}: ${what}`, { method });
  const tx = json.transaction;
  if (!tx || typeof tx !== 'object') throw drift('no transaction in the answer');
  const t = tx as Record<string, unknown>;
  const validUntil =
    typeof t.validUntil === 'string' && /^\d+$/.test(t.validUntil) ? Number(t.validUntil) : t.validUntil;
  if (typeof validUntil !== 'number' || !Number.isSafeInteger(validUntil))
    throw drift('transaction.validUntil is not unix seconds');
  if (typeof t.from !== 'string' || t.from === '') throw drift('transaction.from missing');
  if (!Array.isArray(t.messages) || t.messages.length === 0) throw drift('transaction.messages empty');
  const messages: FragmentTransactionMessage[] = t.messages.map((raw: unknown, index: number) => {
    if (!raw || typeof raw !== 'object') throw drift(`messages[${index}] is not an object`);
    const m = raw as Record<string, unknown>;
    if (typeof m.address !== 'string' || m.address === '') throw drift(`messages[${index}].address missing`);
    const written = typeof m.amount === 'number' && Number.isSafeInteger(m.amount) ? String(m.amount) : m.amount;
    const amount = typeof written === 'string' ? fragmentDecimal(written) : undefined;
    if (amount === undefined || amount.includes('.')) throw drift(`messages[${index}].amount is not integer nanoTON`);
    if (m.payload !== undefined && typeof m.payload !== 'string')
      throw drift(`messages[${index}].payload is not a string`);
    if (m.stateInit !== undefined && typeof m.stateInit !== 'string')
      throw drift(`messages[${index}].stateInit is not a string`);
    return {
      address: m.address,
      amount,
      ...(typeof m.payload === 'string' ? { payload: m.payload } : {}),
      ...(typeof m.stateInit === 'string' ? { stateInit: m.stateInit } : {}),
    };
  });
  // Fragment's own script calls no confirm when the answer names no `confirm_method`.
  const confirmMethod = json.confirm_method;
  if (confirmMethod !== undefined && confirmMethod !== null && confirmMethod !== '') {
    if (typeof confirmMethod !== 'string' || !METHOD_NAME.test(confirmMethod)) throw drift('confirm_method malformed');
  }
  const rawParams = json.confirm_params ?? {};
  if (!rawParams || typeof rawParams !== 'object' || Array.isArray(rawParams)) throw drift('confirm_params malformed');
  const confirmParams: Record<string, string> = {};
  for (const [name, value] of Object.entries(rawParams as Record<string, unknown>)) {
    const text = scalarText(value);
    if (text === undefined) throw drift(`confirm_params.${name} is not a scalar`);
    confirmParams[name] = text;
  }
  return {
    validUntil,
    from: t.from,
    ...(typeof t.network === 'string' ? { network: t.network } : {}),
    messages,
    ...(typeof confirmMethod === 'string' && confirmMethod !== '' ? { confirmMethod } : {}),
    confirmParams,
  };
}

/**
 * `init…Request`'s answer → the order's id and amount (`{req_id, amount, myself, to_bot, …}`).
 * No `req_id` and no error: a dead login (pyfragment #36).
 */
export function parseInitAnswer(json: Record<string, unknown>, method: string): { reqId: string; amount: string } {
  const reqId = scalarText(json.req_id);
  if (reqId === undefined || reqId === '') {
    throw new FragmentError('SESSION_INVALID', `Fragment ${method}: answer without req_id (session likely expired)`, {
      method,
    });
  }
  const amount = decimalText(json.amount);
  if (amount === undefined) {
    throw new FragmentError('UNEXPECTED_RESPONSE', `Fragment ${method}: req_id without a decimal amount`, { method });
  }
  return { reqId, amount };
}
