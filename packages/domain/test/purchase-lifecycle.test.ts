import {
  assertOperatorMove,
  assertWorkerMove,
  canOperatorMove,
  canTransition,
  canWorkerMove,
  CLIENT_SIGNED_LIFECYCLE,
  IllegalTransitionError,
  isTerminalStatus,
  operatorResolvableStatuses,
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
    // Across modes: a checkout's `expired` too.
    expect(TERMINAL_STATUSES).toEqual(['completed', 'failed', 'reconciliation_required', 'expired']);
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

  it('operator moves come from the table: only a reconciliation case, to completed or failed, in either mode', () => {
    for (const mode of ['server_signed', 'client_signed']) {
      expect(operatorResolvableStatuses(mode)).toEqual(['reconciliation_required']);
      expect(canOperatorMove('reconciliation_required', 'completed', mode)).toBe(true);
      expect(canOperatorMove('reconciliation_required', 'failed', mode)).toBe(true);
      expect(canOperatorMove('confirming', 'failed', mode)).toBe(false);
      expect(canOperatorMove('completed', 'failed', mode)).toBe(false);
    }
    expect(canOperatorMove('reconciliation_required', 'completed', 'no_such_mode')).toBe(false);
    expect(operatorResolvableStatuses('no_such_mode')).toEqual([]);
    expect(() => assertOperatorMove('reconciliation_required', 'failed', 'client_signed')).not.toThrow();
    expect(() => assertOperatorMove('sending', 'failed')).toThrow(IllegalTransitionError);
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

describe('the client-signed (checkout) lifecycle', () => {
  it('waits for the signature, then goes on as a purchase; expires only from awaiting_signature', () => {
    expect(terminalStatusesOf(CLIENT_SIGNED_LIFECYCLE)).toEqual([
      'completed',
      'failed',
      'expired',
      'reconciliation_required',
    ]);
    for (const [from, to] of [
      ['preparing', 'awaiting_signature'],
      ['preparing', 'failed'],
      ['awaiting_signature', 'submitted'],
      ['awaiting_signature', 'expired'],
      ['submitted', 'confirming'],
      ['confirming', 'completed'],
    ] as const)
      expect(canWorkerMove(from, to, 'client_signed')).toBe(true);
    // Nothing was paid before the signature: never reconciliation from preparing, never expired once submitted.
    expect(canWorkerMove('preparing', 'sending', 'client_signed')).toBe(false);
    expect(canWorkerMove('awaiting_signature', 'failed', 'client_signed')).toBe(false);
    expect(canWorkerMove('submitted', 'expired', 'client_signed')).toBe(false);
    // A checkout never passes through the server-signed statuses, nor a purchase through a checkout's.
    expect(CLIENT_SIGNED_LIFECYCLE.statuses).not.toContain('queued');
    expect(CLIENT_SIGNED_LIFECYCLE.statuses).not.toContain('sending');
    expect(SERVER_SIGNED_LIFECYCLE.statuses).not.toContain('awaiting_signature');
    expect(() => assertWorkerMove('preparing', 'awaiting_signature')).toThrow(IllegalTransitionError);
    expect(() => assertWorkerMove('preparing', 'awaiting_signature', 'client_signed')).not.toThrow();
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
