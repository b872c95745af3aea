import { classifyErrorText, errorFromText, FragmentError, type FragmentErrorKind } from '../src';

describe('error text mapping (docs/fragment-protocol.md §11)', () => {
  it.each<[string, FragmentErrorKind]>([
    ['No Telegram users found.', 'RECIPIENT_NOT_FOUND'],
    ['No Telegram channels found.', 'RECIPIENT_NOT_FOUND'],
    ['Please enter a username assigned to a user.', 'RECIPIENT_INELIGIBLE'],
    ["You can't gift Telegram Stars to this account at this moment.", 'RECIPIENT_INELIGIBLE'],
    ['You can&#39;t gift Telegram Stars to this account at this moment.', 'RECIPIENT_INELIGIBLE'],
    ['You can&#039;t gift Telegram Stars to this account at this moment.', 'RECIPIENT_INELIGIBLE'],
    ['This account is already subscribed to Telegram Premium.', 'PREMIUM_ALREADY_ACTIVE'],
    ['Price was changed. Please try again.', 'PRICE_CHANGED'],
    ['Access denied', 'SESSION_INVALID'],
    ['Session expired', 'SESSION_INVALID'],
    ['AUTH_SESSION_EXPIRED', 'SESSION_INVALID'],
    ['This payment method is not available.', 'PAYMENT_METHOD_UNAVAILABLE'],
    ['This request has expired. Please try again.', 'ORDER_EXPIRED'],
    ['Request not found. Please try again.', 'ORDER_EXPIRED'],
    ['Transaction not found. Please try again.', 'UPSTREAM_REJECTED'],
    ['Bad request', 'UPSTREAM_REJECTED'],
    ['Internal error. Please try again later.', 'UPSTREAM_UNAVAILABLE'],
    ['Service temporarily unavailable', 'UPSTREAM_UNAVAILABLE'],
    ['Too many attempts. Try again later.', 'UPSTREAM_UNAVAILABLE'],
    ['Something new and unexpected', 'UPSTREAM_REJECTED'],
    ['Too many requests', 'RATE_LIMITED'],
    ['Too many requests. Please try again later.', 'RATE_LIMITED'],
    ['Flood control: wait a bit', 'RATE_LIMITED'],
    ['Invalid method', 'UNEXPECTED_RESPONSE'],
    ['Unknown error', 'UPSTREAM_REJECTED'],
  ])('%j → %s', (text, kind) => {
    expect(classifyErrorText(text)).toBe(kind);
  });

  it('keeps the unescaped upstream text and the method on the error', () => {
    const error = errorFromText(
      '  You can&#39;t gift Telegram Stars\n to this account at this moment. ',
      'searchStarsRecipient',
    );
    expect(error).toBeInstanceOf(FragmentError);
    expect(error.kind).toBe('RECIPIENT_INELIGIBLE');
    expect(error.upstreamText).toBe("You can't gift Telegram Stars to this account at this moment.");
    expect(error.method).toBe('searchStarsRecipient');
    expect(error.retryable).toBe(false);
  });

  it.each<[FragmentErrorKind, boolean]>([
    ['RATE_LIMITED', true],
    ['UPSTREAM_UNAVAILABLE', true],
    ['CLOUDFLARE', true],
    ['PRICE_CHANGED', true],
    ['RECIPIENT_NOT_FOUND', false],
    ['RECIPIENT_INELIGIBLE', false],
    ['PREMIUM_ALREADY_ACTIVE', false],
    ['SESSION_INVALID', false],
    ['VERIFICATION_REQUIRED', false],
    ['PAYMENT_METHOD_UNAVAILABLE', false],
    ['ORDER_EXPIRED', false],
    ['UPSTREAM_REJECTED', false],
    ['UNEXPECTED_RESPONSE', false],
  ])('%s retryable=%s', (kind, retryable) => {
    expect(new FragmentError(kind, 'x').retryable).toBe(retryable);
  });
});
