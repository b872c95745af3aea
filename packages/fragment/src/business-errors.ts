import { FragmentError, errorFromText } from './errors';
import { htmlToText } from './html-parsing';
import { asBoolean } from './json-values';

/** need_verify, need_ton and `error` of a JSON answer → FragmentError. */
export function raiseBusinessError(json: Record<string, unknown>, method: string): void {
  if (asBoolean(json.need_verify)) {
    const popup = typeof json.popup === 'string' ? htmlToText(json.popup) : undefined;
    throw new FragmentError(
      'VERIFICATION_REQUIRED',
      `Fragment ${method}: verification required${popup ? `: ${popup}` : ''}`,
      { method, popup, upstreamText: popup },
    );
  }
  if (asBoolean(json.need_ton)) {
    throw new FragmentError(
      'SESSION_INVALID',
      `Fragment ${method}: no TON wallet connected to this session (need_ton)`,
      {
        method,
      },
    );
  }
  const error = json.error;
  if (typeof error === 'string' && error.trim() !== '') throw errorFromText(error, method);
  if (error !== undefined && error !== null && error !== false && error !== '') {
    throw new FragmentError('UPSTREAM_REJECTED', `Fragment ${method}: error ${JSON.stringify(error)}`, { method });
  }
}
