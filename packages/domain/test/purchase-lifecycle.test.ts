import {
  assertWorkerMove,
  canTransition,
  canWorkerMove,
  IllegalTransitionError,
  isTerminalStatus,
  PURCHASE_LIFECYCLES,
  PURCHASE_STATUSES,
  SERVER_SIGNED_LIFECYCLE,
  TERMINAL_STATUSES,
  terminalStatusesOf,
  type PurchaseLifecycle,
} from '../src';

describe('the server-signed lifecycle', () => {
  it('has exactly the three terminal statuses, derived from the moves (none leave them for the worker)', () => {
    expect(terminalStatusesOf(SERVER_SIGNED_LIFECYCLE)).toEqual(['completed', 'failed', 'reconciliation_required']);
    expect(TERMINAL_STATUSES).toEqual(['completed', 'failed', 'reconciliation_required']);
    for (const status of PURCHASE_STATUSES) expect(isTerminalStatus(status)).toBe(TERMINAL_STATUSES.includes(status));
    expect(isTerminalStatus('no such status')).toBe(false);
  });

  it('lets the worker make the moves of the state machine and no others', () => {
    const allowed = [
      ['queued', 'preparing'],
      ['preparing', 'sending'],
      ['preparing', 'failed'],
      ['sending', 'submitted'],
      ['sending', 'failed'],
      ['sending', 'reconciliation_required'],
      ['submitted', 'confirming'],
      ['submitted', 'reconciliation_required'],
      ['confirming', 'completed'],
      ['confirming', 'failed'],
      ['confirming', 'reconciliation_required'],
    ] as const;
    for (const [from, to] of allowed) expect(canWorkerMove(from, to)).toBe(true);
    // Money may have left the wallet: never straight to completed, never back.
    expect(canWorkerMove('preparing', 'completed')).toBe(false);
    expect(canWorkerMove('preparing', 'reconciliation_required')).toBe(false);
    expect(canWorkerMove('sending', 'completed')).toBe(false);
    expect(canWorkerMove('submitted', 'preparing')).toBe(false);
    expect(canWorkerMove('confirming', 'sending')).toBe(false);
    for (const terminal of TERMINAL_STATUSES)
      for (const to of PURCHASE_STATUSES) expect(canWorkerMove(terminal, to)).toBe(false);
  });

  it('leaves resolving an uncertain outcome to an operator', () => {
    expect(canWorkerMove('reconciliation_required', 'completed')).toBe(false);
    expect(canTransition('reconciliation_required', 'completed')).toBe(true);
    expect(canTransition('reconciliation_required', 'failed')).toBe(true);
    expect(canTransition('reconciliation_required', 'confirming')).toBe(false);
    expect(canTransition('completed', 'failed')).toBe(false);
    expect(canTransition('failed', 'completed')).toBe(false);
  });

  it('assertWorkerMove throws IllegalTransitionError for a move not in the table, and lets staying put pass', () => {
    expect(() => assertWorkerMove('confirming', 'completed')).not.toThrow();
    expect(() => assertWorkerMove('confirming', 'confirming')).not.toThrow();
    expect(() => assertWorkerMove('completed', 'failed')).toThrow(IllegalTransitionError);
    expect(() => assertWorkerMove('preparing', 'submitted')).toThrow('cannot move from preparing to submitted');
    expect(() => assertWorkerMove('queued', 'bogus')).toThrow(IllegalTransitionError);
    expect(() => assertWorkerMove('queued', 'preparing', 'no_such_mode')).toThrow(IllegalTransitionError);
  });

  it('every status and every move of every mode is a known status', () => {
    for (const lifecycle of Object.values<PurchaseLifecycle>(PURCHASE_LIFECYCLES)) {
      for (const status of lifecycle.statuses) expect(PURCHASE_STATUSES).toContain(status);
      for (const moves of [lifecycle.workerMoves, lifecycle.operatorMoves])
        for (const [from, targets] of Object.entries(moves)) {
          expect(lifecycle.statuses).toContain(from);
          for (const to of targets ?? []) expect(lifecycle.statuses).toContain(to);
        }
    }
  });
});

describe('terminal statuses per lifecycle', () => {
  it('a status is terminal overall only if every lifecycle that has it ends there', () => {
    const lifecycle: PurchaseLifecycle = {
      statuses: ['queued', 'failed'],
      workerMoves: { queued: ['failed'] },
      operatorMoves: {},
    };
    expect(terminalStatusesOf(lifecycle)).toEqual(['failed']);
  });
});
