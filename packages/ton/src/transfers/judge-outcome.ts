import type { Message, Transaction } from '@ton/core';
import { JETTON_OP } from './jetton-transfer-body';

export type Judgement = { ok: true } | { ok: false; reason: string; detail: string };

function fail(reason: string, detail: string): Judgement {
  return { ok: false, reason, detail };
}

/**
 * Judge the payer wallet's own transaction (the one that processed our external). Success only
 * when: ordinary transaction, compute phase ran with exit code 0, action phase succeeded with
 * `skipped_actions == 0` and `msgs_created == expectedMessages`, not aborted. A V5R1 wallet with
 * too little balance "succeeds" with `skipped_actions > 0` and no messages (send mode +2):
 * that is SKIPPED_ACTIONS here, never ok.
 *
 * Reasons: NOT_ORDINARY, COMPUTE_SKIPPED, COMPUTE_FAILED, NO_ACTION_PHASE, ACTION_FAILED,
 * SKIPPED_ACTIONS, NO_MESSAGES_CREATED, MESSAGE_COUNT_MISMATCH, ABORTED.
 */
export function judgeWalletTransaction(tx: Transaction, expectedMessages: number): Judgement {
  const d = tx.description;
  if (d.type !== 'generic') return fail('NOT_ORDINARY', `transaction type ${d.type}`);
  const compute = d.computePhase;
  if (compute.type === 'skipped') return fail('COMPUTE_SKIPPED', `compute phase skipped (${compute.reason})`);
  if (!compute.success || compute.exitCode !== 0) {
    return fail('COMPUTE_FAILED', `compute phase exit code ${compute.exitCode}`);
  }
  const action = d.actionPhase;
  if (!action) return fail('NO_ACTION_PHASE', 'no action phase');
  if (!action.success || !action.valid) {
    return fail('ACTION_FAILED', `action phase result code ${action.resultCode}${action.noFunds ? ' (no funds)' : ''}`);
  }
  if (action.skippedActions > 0) {
    return fail(
      'SKIPPED_ACTIONS',
      `${action.skippedActions} of ${action.totalActions} actions skipped, ${action.messagesCreated} messages created (balance too low?)`,
    );
  }
  if (d.aborted) return fail('ABORTED', 'transaction aborted');
  if (action.messagesCreated !== expectedMessages) {
    if (action.messagesCreated === 0)
      return fail('NO_MESSAGES_CREATED', `expected ${expectedMessages} messages, none created`);
    return fail('MESSAGE_COUNT_MISMATCH', `expected ${expectedMessages} messages, ${action.messagesCreated} created`);
  }
  return { ok: true };
}

/** Hints for exit codes of the jetton wallets in use (governance stablecoin / standard jetton). */
const JETTON_EXIT_HINTS: Readonly<Record<number, string>> = {
  45: 'wallet locked',
  47: 'insufficient jetton balance',
  48: 'not enough GRAM attached for gas/forwarding',
  49: 'invalid message',
  73: 'sender is not the owner',
  705: 'sender is not the owner',
  706: 'insufficient jetton balance',
  709: 'not enough GRAM attached for forwarding',
};

function opOf(message: Message | null | undefined): number | null {
  if (!message) return null;
  const s = message.body.beginParse();
  return s.remainingBits >= 32 ? s.loadUint(32) : null;
}

export interface JettonTransferEvidence {
  /** The payer's jetton-wallet transaction whose inbound message is our `transfer#0f8a7ea5`. */
  payerJettonWalletTx: Transaction;
  /** Optional: the transaction on the payer wallet caused by a bounce from the jetton wallet. */
  payerBounceTx?: Transaction | null;
  /** Optional: the receiver jetton wallet's `internal_transfer` transaction. */
  receiverJettonWalletTx?: Transaction | null;
  /** When given, the transfer's query_id must equal it. */
  expectedQueryId?: bigint;
}

/**
 * Judge a jetton (USDT) transfer on the evidence the caller found by following the trace from the
 * payer wallet's transaction. Fails on: wrong inbound op or query_id (UNEXPECTED_MESSAGE),
 * compute skipped/failed on the payer jetton wallet (JETTON_COMPUTE_FAILED, detail names the exit
 * code, e.g. 48 = not enough GRAM attached), a bounce produced there or received by the payer
 * (BOUNCED, body 0xffffffff), action failure / nothing forwarded (JETTON_ACTION_FAILED,
 * JETTON_NO_MESSAGES), abort, or a failed receiver jetton wallet (RECEIVER_FAILED).
 * Ok when the payer jetton wallet forwarded an `internal_transfer` and, if given, the receiver
 * jetton wallet processed it successfully.
 */
export function judgeJettonTransfer(evidence: JettonTransferEvidence): Judgement {
  const tx = evidence.payerJettonWalletTx;
  const inbound = tx.inMessage;
  if (!inbound || inbound.info.type !== 'internal')
    return fail('UNEXPECTED_MESSAGE', 'jetton wallet transaction has no internal inbound message');
  const s = inbound.body.beginParse();
  const op = s.remainingBits >= 32 ? s.loadUint(32) : null;
  if (op !== JETTON_OP.transfer)
    return fail(
      'UNEXPECTED_MESSAGE',
      `inbound op ${op === null ? 'none' : `0x${op.toString(16)}`}, expected jetton transfer`,
    );
  const queryId = s.loadUintBig(64);
  if (evidence.expectedQueryId !== undefined && queryId !== evidence.expectedQueryId) {
    return fail('UNEXPECTED_MESSAGE', `query_id ${queryId} differs from ${evidence.expectedQueryId}`);
  }

  const d = tx.description;
  if (d.type !== 'generic') return fail('NOT_ORDINARY', `transaction type ${d.type}`);
  const bounced = d.bouncePhase?.type === 'ok';
  const compute = d.computePhase;
  if (compute.type === 'skipped') {
    return fail(
      'JETTON_COMPUTE_FAILED',
      `jetton wallet compute skipped (${compute.reason}): the payer has no jetton wallet deployed${bounced ? '; bounced to payer' : ''}`,
    );
  }
  if (!compute.success || compute.exitCode !== 0) {
    const hint = JETTON_EXIT_HINTS[compute.exitCode];
    return fail(
      'JETTON_COMPUTE_FAILED',
      `jetton wallet exit code ${compute.exitCode}${hint ? ` (${hint})` : ''}${bounced ? '; bounced to payer' : ''}`,
    );
  }
  if (bounced) return fail('BOUNCED', 'jetton wallet bounced the transfer');
  const action = d.actionPhase;
  if (!action || !action.success)
    return fail('JETTON_ACTION_FAILED', `jetton wallet action phase result code ${action?.resultCode ?? 'none'}`);
  if (d.aborted) return fail('ABORTED', 'jetton wallet transaction aborted');
  const forwarded = [...tx.outMessages.values()].some(
    (m) => m.info.type === 'internal' && opOf(m) === JETTON_OP.internalTransfer,
  );
  if (!forwarded) return fail('JETTON_NO_MESSAGES', 'jetton wallet sent no internal_transfer');

  const bounceTx = evidence.payerBounceTx;
  if (bounceTx?.inMessage) {
    const info = bounceTx.inMessage.info;
    if ((info.type === 'internal' && info.bounced) || opOf(bounceTx.inMessage) === JETTON_OP.bounce) {
      return fail('BOUNCED', 'the payer wallet received a bounce (0xffffffff)');
    }
  }

  const receiver = evidence.receiverJettonWalletTx;
  if (receiver) {
    if (opOf(receiver.inMessage) !== JETTON_OP.internalTransfer)
      return fail('UNEXPECTED_MESSAGE', 'receiver transaction is not an internal_transfer');
    const rd = receiver.description;
    if (
      rd.type !== 'generic' ||
      rd.computePhase.type !== 'vm' ||
      !rd.computePhase.success ||
      rd.computePhase.exitCode !== 0 ||
      rd.aborted
    ) {
      const code = rd.type === 'generic' && rd.computePhase.type === 'vm' ? rd.computePhase.exitCode : 'skipped';
      return fail('RECEIVER_FAILED', `receiver jetton wallet exit code ${code}`);
    }
  }
  return { ok: true };
}
