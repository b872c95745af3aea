/**
 * A Fragment session's health from its own calls: what each error kind says of the login comes
 * from the fragment package's error table (FRAGMENT_ERROR_KINDS[kind].session), not from lists
 * kept here. A refusal of the login marks it invalid, an answer about the order marks it valid,
 * and a failure on the way leaves it as it was.
 */
import { FRAGMENT_ERROR_KINDS, FragmentError, type FragmentErrorKind } from '@starsgate/fragment';
import { parsePrometheusText, sampleSum } from '@starsgate/platform/testing';
import { createWorkerMetrics } from '../src/observability/worker-metrics';
import { UpstreamHealth } from '../src/observability/upstream-health';

const KINDS = Object.keys(FRAGMENT_ERROR_KINDS) as FragmentErrorKind[];

describe('UpstreamHealth of a Fragment session', () => {
  it('the error table names the refusals and the answers the session health used to list', () => {
    const withVerdict = (verdict: string) => KINDS.filter((kind) => FRAGMENT_ERROR_KINDS[kind].session === verdict);
    expect(withVerdict('refused')).toEqual(['SESSION_INVALID', 'VERIFICATION_REQUIRED']);
    expect(withVerdict('answered').sort()).toEqual(
      [
        'ORDER_EXPIRED',
        'PREMIUM_ALREADY_ACTIVE',
        'PRICE_CHANGED',
        'RECIPIENT_INELIGIBLE',
        'RECIPIENT_NOT_FOUND',
      ].sort(),
    );
  });

  it.each(KINDS)('after a valid call, %s leaves the session as its table entry says', async (kind) => {
    const metrics = createWorkerMetrics();
    const health = new UpstreamHealth(1, metrics);
    const observe = health.fragmentObserver(0);
    observe({ upstream: 'fragment', method: 'searchRecipient', seconds: 0.01 });
    observe({ upstream: 'fragment', method: 'initBuyRequest', seconds: 0.01, error: new FragmentError(kind, 'test') });
    const [session] = health.snapshot().fragment_sessions;
    const verdict = FRAGMENT_ERROR_KINDS[kind].session;
    expect(session?.valid).toBe(verdict !== 'refused');
    expect(session?.last_error === null).toBe(verdict === 'answered');
    const gauge = sampleSum(parsePrometheusText(await metrics.registry.metrics()), 'starsgate_fragment_session_valid', {
      session: '0',
    });
    expect(gauge).toBe(verdict === 'refused' ? 0 : 1);
  });

  it('an error that is no FragmentError says nothing of the login', () => {
    const health = new UpstreamHealth(1, createWorkerMetrics());
    health.fragmentObserver(0)({
      upstream: 'fragment',
      method: 'searchRecipient',
      seconds: 0.01,
      error: new Error('socket hang up'),
    });
    expect(health.snapshot().fragment_sessions[0]).toMatchObject({ valid: null, last_error: { kind: 'Error' } });
  });
});
