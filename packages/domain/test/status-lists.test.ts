import {
  CLIENT_SIGNED_LIFECYCLE,
  OPEN_STATUSES,
  PURCHASE_STATUSES,
  RESOLVABLE_STATUSES,
  SERVER_SIGNED_LIFECYCLE,
  TERMINAL_STATUSES,
  WORKER_STATUSES,
} from '../src';

describe('status lists derived from the lifecycles', () => {
  it('the worker moves purchases out of the statuses its lifecycles give moves', () => {
    expect(WORKER_STATUSES).toEqual([
      'queued',
      'preparing',
      'sending',
      'submitted',
      'confirming',
      'awaiting_signature',
    ]);
    const keys = new Set([
      ...Object.keys(SERVER_SIGNED_LIFECYCLE.workerMoves),
      ...Object.keys(CLIENT_SIGNED_LIFECYCLE.workerMoves),
    ]);
    expect(new Set(WORKER_STATUSES)).toEqual(keys);
  });

  it('an operator resolves only an uncertain outcome', () => {
    expect(RESOLVABLE_STATUSES).toEqual(['reconciliation_required']);
  });

  it('open: everything still waiting for the worker or an operator; never completed, failed or expired', () => {
    expect(OPEN_STATUSES).toEqual([
      'queued',
      'preparing',
      'sending',
      'submitted',
      'confirming',
      'reconciliation_required',
      'awaiting_signature',
    ]);
    for (const status of ['completed', 'failed', 'expired'] as const) expect(OPEN_STATUSES).not.toContain(status);
    // Every status is open or terminal for the worker, and only an operator's case is both.
    for (const status of PURCHASE_STATUSES)
      expect(OPEN_STATUSES.includes(status) || TERMINAL_STATUSES.includes(status)).toBe(true);
    expect(OPEN_STATUSES.filter((status) => TERMINAL_STATUSES.includes(status))).toEqual(RESOLVABLE_STATUSES);
  });
});
