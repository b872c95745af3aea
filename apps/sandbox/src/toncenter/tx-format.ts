import {
  Address,
  beginCell,
  Cell,
  loadTransaction,
  storeStateInit,
  type AccountStatus as CoreAccountStatus,
  type Message,
  type StateInit,
  type Transaction,
} from '@ton/core';
import { transactionMessageCells } from '../chain/message-hash';
import type { IndexedTransaction } from '../chain/transaction-index';

/** A transaction with its exact message cells, decoded once for both API versions. */
export interface DecodedTransaction {
  entry: IndexedTransaction;
  tx: Transaction;
  inMsg: { message: Message; cell: Cell } | null;
  outMsgs: { message: Message; cell: Cell }[];
}

/** Transactions never change: each is decoded once, however often providers' clients poll for it. */
const decoded = new WeakMap<IndexedTransaction, DecodedTransaction>();

export function decodeTransaction(entry: IndexedTransaction): DecodedTransaction {
  let result = decoded.get(entry);
  if (!result) {
    result = decodeUncached(entry);
    decoded.set(entry, result);
  }
  return result;
}

function decodeUncached(entry: IndexedTransaction): DecodedTransaction {
  const [raw] = Cell.fromBoc(entry.boc);
  if (!raw) throw new Error('corrupt transaction BOC');
  const tx = loadTransaction(raw.beginParse());
  const cells = transactionMessageCells(raw);
  const keys = [...tx.outMessages.keys()].sort((a, b) => a - b);
  return {
    entry,
    tx,
    inMsg: tx.inMessage && cells.inMsg ? { message: tx.inMessage, cell: cells.inMsg } : null,
    outMsgs: keys.map((k, i) => ({ message: tx.outMessages.get(k) as Message, cell: cells.outMsgs[i] as Cell })),
  };
}

/** Friendly form as toncenter v2 prints it (bounceable, url-safe). */
export const friendly = (a: Address): string => a.toString({ bounceable: true, urlSafe: true });
/** Raw form as toncenter v3 prints it (`0:` + upper-case hex). */
export const rawUpper = (a: Address): string => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;

/** Text of a TEP "text comment" body (32 zero bits + UTF-8), or null. */
export function textComment(body: Cell): string | null {
  try {
    const s = body.beginParse();
    if (s.remainingBits < 32 || s.loadUint(32) !== 0) return null;
    return s.loadStringTail();
  } catch {
    return null;
  }
}

export function opcode(body: Cell): number | null {
  const s = body.beginParse();
  return s.remainingBits >= 32 ? s.loadUint(32) : null;
}

// ---------------------------------------------------------------- v2

function v2Message(m: { message: Message; cell: Cell }): Record<string, unknown> {
  const { info, body, init } = m.message;
  const source = info.type === 'external-in' ? '' : info.src instanceof Address ? friendly(info.src) : '';
  const destination = info.type === 'external-out' ? '' : info.dest instanceof Address ? friendly(info.dest) : '';
  const comment = textComment(body);
  return {
    '@type': 'raw.message',
    hash: m.cell.hash().toString('base64'),
    source,
    destination,
    value: info.type === 'internal' ? info.value.coins.toString() : '0',
    extra_currencies: [],
    fwd_fee: info.type === 'internal' ? info.forwardFee.toString() : '0',
    ihr_fee: info.type === 'internal' ? info.ihrFee.toString() : '0',
    created_lt: info.type === 'external-in' ? '0' : info.createdLt.toString(),
    body_hash: body.hash().toString('base64'),
    msg_data: {
      '@type': 'msg.dataRaw',
      body: body.toBoc().toString('base64'),
      init_state: init ? initBoc(init) : '',
    },
    ...(comment !== null ? { message: comment } : {}),
  };
}

/** StateInit BOC of a message's init (re-serialized; only the message cell hash is reported). */
function initBoc(init: StateInit): string {
  return beginCell().store(storeStateInit(init)).endCell().toBoc().toString('base64');
}

export function v2Transaction(d: DecodedTransaction, account: Address): Record<string, unknown> {
  const { tx, entry } = d;
  const total = tx.totalFees.coins;
  const storage = tx.description.type === 'generic' ? (tx.description.storagePhase?.storageFeesCollected ?? 0n) : 0n;
  return {
    '@type': 'raw.transaction',
    address: { '@type': 'accountAddress', account_address: friendly(account) },
    utime: tx.now,
    data: entry.boc.toString('base64'),
    transaction_id: { '@type': 'internal.transactionId', lt: tx.lt.toString(), hash: entry.hash.toString('base64') },
    fee: total.toString(),
    storage_fee: storage.toString(),
    other_fee: (total - storage).toString(),
    ...(d.inMsg ? { in_msg: v2Message(d.inMsg) } : {}),
    out_msgs: d.outMsgs.map(v2Message),
  };
}

// ---------------------------------------------------------------- v3

const v3Status = (s: CoreAccountStatus): string =>
  ({ uninitialized: 'uninit', frozen: 'frozen', active: 'active', 'non-existing': 'nonexist' })[s];

function v3Message(m: { message: Message; cell: Cell }, hashNorm: string | null): Record<string, unknown> {
  const { info, body, init } = m.message;
  const comment = textComment(body);
  const op = opcode(body);
  return {
    hash: m.cell.hash().toString('base64'),
    source: info.type !== 'external-in' && info.src instanceof Address ? rawUpper(info.src) : null,
    destination: info.type !== 'external-out' && info.dest instanceof Address ? rawUpper(info.dest) : null,
    value: info.type === 'internal' ? info.value.coins.toString() : null,
    value_extra_currencies: {},
    fwd_fee: info.type === 'internal' ? info.forwardFee.toString() : null,
    ihr_fee: info.type === 'internal' ? info.ihrFee.toString() : null,
    created_lt: info.type === 'external-in' ? null : info.createdLt.toString(),
    created_at: info.type === 'external-in' ? null : String(info.createdAt),
    opcode: op === null ? null : `0x${op.toString(16).padStart(8, '0')}`,
    ihr_disabled: info.type === 'internal' ? info.ihrDisabled : null,
    bounce: info.type === 'internal' ? info.bounce : null,
    bounced: info.type === 'internal' ? info.bounced : null,
    import_fee: info.type === 'external-in' ? info.importFee.toString() : null,
    message_content: {
      hash: body.hash().toString('base64'),
      body: body.toBoc().toString('base64'),
      decoded: comment !== null ? { type: 'text_comment', comment } : null,
    },
    init_state: init ? { hash: null, body: initBoc(init) } : null,
    ...(hashNorm ? { hash_norm: hashNorm } : {}),
  };
}

function v3Description(tx: Transaction): Record<string, unknown> {
  const d = tx.description;
  if (d.type !== 'generic') return { type: d.type };
  const cp = d.computePhase;
  const compute =
    cp.type === 'skipped'
      ? { skipped: true, reason: cp.reason }
      : {
          skipped: false,
          success: cp.success,
          msg_state_used: cp.messageStateUsed,
          account_activated: cp.accountActivated,
          gas_fees: cp.gasFees.toString(),
          gas_used: cp.gasUsed.toString(),
          gas_limit: cp.gasLimit.toString(),
          ...(cp.gasCredit !== undefined && cp.gasCredit !== null ? { gas_credit: cp.gasCredit.toString() } : {}),
          mode: cp.mode,
          exit_code: cp.exitCode,
          ...(cp.exitArg !== undefined && cp.exitArg !== null ? { exit_arg: cp.exitArg } : {}),
          vm_steps: cp.vmSteps,
          vm_init_state_hash: cp.vmInitStateHash.toString(16).padStart(64, '0'),
          vm_final_state_hash: cp.vmFinalStateHash.toString(16).padStart(64, '0'),
        };
  const ap = d.actionPhase;
  return {
    type: 'ord',
    aborted: d.aborted,
    destroyed: d.destroyed,
    credit_first: d.creditFirst,
    ...(d.storagePhase
      ? {
          storage_ph: {
            storage_fees_collected: d.storagePhase.storageFeesCollected.toString(),
            status_change: d.storagePhase.statusChange,
          },
        }
      : {}),
    ...(d.creditPhase ? { credit_ph: { credit: d.creditPhase.credit.coins.toString() } } : {}),
    compute_ph: compute,
    ...(ap
      ? {
          action: {
            success: ap.success,
            valid: ap.valid,
            no_funds: ap.noFunds,
            status_change: ap.statusChange,
            ...(ap.totalFwdFees !== undefined && ap.totalFwdFees !== null
              ? { total_fwd_fees: ap.totalFwdFees.toString() }
              : {}),
            ...(ap.totalActionFees !== undefined && ap.totalActionFees !== null
              ? { total_action_fees: ap.totalActionFees.toString() }
              : {}),
            result_code: ap.resultCode,
            ...(ap.resultArg !== undefined && ap.resultArg !== null ? { result_arg: ap.resultArg } : {}),
            tot_actions: ap.totalActions,
            spec_actions: ap.specActions,
            skipped_actions: ap.skippedActions,
            msgs_created: ap.messagesCreated,
            action_list_hash: Buffer.from(ap.actionListHash.toString(16).padStart(64, '0'), 'hex').toString('base64'),
            tot_msg_size: { cells: ap.totalMessageSize.cells.toString(), bits: ap.totalMessageSize.bits.toString() },
          },
        }
      : {}),
    ...(d.bouncePhase ? { bounce: { type: d.bouncePhase.type } } : {}),
  };
}

export function v3Transaction(d: DecodedTransaction): Record<string, unknown> {
  const { tx, entry } = d;
  const account = Address.parseRaw(entry.account);
  const hashOf = (h: bigint) => Buffer.from(h.toString(16).padStart(64, '0'), 'hex').toString('base64');
  return {
    account: rawUpper(account),
    hash: entry.hash.toString('base64'),
    lt: tx.lt.toString(),
    now: tx.now,
    mc_block_seqno: entry.block,
    trace_id: entry.traceId.toString('base64'),
    prev_trans_hash: hashOf(tx.prevTransactionHash),
    prev_trans_lt: tx.prevTransactionLt.toString(),
    orig_status: v3Status(tx.oldStatus),
    end_status: v3Status(tx.endStatus),
    total_fees: tx.totalFees.coins.toString(),
    total_fees_extra_currencies: {},
    description: v3Description(tx),
    block_ref: { workchain: account.workChain, shard: '8000000000000000', seqno: entry.block },
    in_msg: d.inMsg
      ? v3Message(d.inMsg, entry.inMsgHashNorm ? Buffer.from(entry.inMsgHashNorm, 'hex').toString('base64') : null)
      : null,
    out_msgs: d.outMsgs.map((m) => v3Message(m, null)),
    account_state_before: {
      hash: tx.stateUpdate.oldHash.toString('base64'),
      balance: null,
      account_status: v3Status(tx.oldStatus),
      frozen_hash: null,
      data_hash: null,
      code_hash: null,
    },
    account_state_after: {
      hash: tx.stateUpdate.newHash.toString('base64'),
      balance: null,
      account_status: v3Status(tx.endStatus),
      frozen_hash: null,
      data_hash: null,
      code_hash: null,
    },
    emulated: false,
  };
}

/** v3 address_book for every address appearing in `addresses`. */
export function addressBook(
  addresses: Iterable<Address>,
  isWalletLike: (a: Address) => boolean = () => false,
): Record<string, { user_friendly: string; domain: null }> {
  const book: Record<string, { user_friendly: string; domain: null }> = {};
  for (const a of addresses) {
    book[rawUpper(a)] = { user_friendly: a.toString({ bounceable: !isWalletLike(a), urlSafe: true }), domain: null };
  }
  return book;
}

/** Every address a v3 transaction mentions. */
export function transactionAddresses(d: DecodedTransaction): Address[] {
  const out: Address[] = [Address.parseRaw(d.entry.account)];
  for (const m of [d.inMsg, ...d.outMsgs]) {
    if (!m) continue;
    const { info } = m.message;
    if (info.type !== 'external-in' && info.src instanceof Address) out.push(info.src);
    if (info.type !== 'external-out' && info.dest instanceof Address) out.push(info.dest);
  }
  return out;
}
