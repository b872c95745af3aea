import { Address, beginCell, Cell } from '@ton/core';

/** TEP-74 op codes. */
export const JETTON_OP = {
  transfer: 0x0f8a7ea5,
  internalTransfer: 0x178d4519,
  transferNotification: 0x7362d09c,
  excesses: 0xd53276db,
  bounce: 0xffffffff,
} as const;

/** GRAM attached to the payer's jetton-wallet message (docs/ton.md §5.4: 0.05); overridable by config. */
export const DEFAULT_JETTON_TRANSFER_ATTACH = 50_000_000n;

export interface JettonTransferArgs {
  queryId: bigint;
  /** Jetton base units (USDT: 10^-6). */
  amount: bigint;
  /** The recipient's owner wallet (not its jetton wallet). */
  destination: Address;
  /** Receives the excess GRAM: the payer wallet itself. */
  responseDestination: Address;
  /** Default 1 nanoGRAM: the minimum that still triggers transfer_notification. */
  forwardTonAmount?: bigint;
  /** Stored bit-for-bit as given (e.g. the marketplace's comment cell). */
  forwardPayload: Cell;
  /**
   * Where the forward payload goes (TEP-74 `Either Cell ^Cell`): a reference (the default) or
   * inline, as a transfer being carried over had it, so the receiver sees the same payload.
   */
  forwardPayloadInRef?: boolean;
}

/**
 * TEP-74 `transfer#0f8a7ea5 query_id:uint64 amount:(VarUInteger 16) destination:MsgAddress
 * response_destination:MsgAddress custom_payload:(Maybe ^Cell) forward_ton_amount:(VarUInteger 16)
 * forward_payload:(Either Cell ^Cell)`, with no custom payload and the forward payload as a ref
 * unless `forwardPayloadInRef` is false.
 */
export function buildJettonTransferBody(args: JettonTransferArgs): Cell {
  const forwardTonAmount = args.forwardTonAmount ?? 1n;
  if (args.amount <= 0n) throw new RangeError('jetton amount must be positive');
  if (args.queryId < 0n || args.queryId >= 1n << 64n) throw new RangeError('query_id is a uint64');
  if (forwardTonAmount < 0n) throw new RangeError('forward_ton_amount must not be negative');
  const head = beginCell()
    .storeUint(JETTON_OP.transfer, 32)
    .storeUint(args.queryId, 64)
    .storeCoins(args.amount)
    .storeAddress(args.destination)
    .storeAddress(args.responseDestination)
    .storeBit(false) // custom_payload: nothing
    .storeCoins(forwardTonAmount);
  if (args.forwardPayloadInRef === false)
    return head.storeBit(false).storeSlice(args.forwardPayload.beginParse()).endCell();
  return head.storeBit(true).storeRef(args.forwardPayload).endCell();
}

export interface DecodedJettonTransfer {
  queryId: bigint;
  amount: bigint;
  destination: Address | null;
  responseDestination: Address | null;
  customPayload: Cell | null;
  forwardTonAmount: bigint;
  forwardPayload: Cell | null;
  /** True when the forward payload was a ref (Either right). */
  forwardPayloadInRef: boolean;
}

/** Decode a TEP-74 transfer body (throws on another op or a malformed body). */
export function parseJettonTransferBody(body: Cell): DecodedJettonTransfer {
  const s = body.beginParse();
  const op = s.loadUint(32);
  if (op !== JETTON_OP.transfer) throw new TypeError(`not a jetton transfer (op 0x${op.toString(16)})`);
  const queryId = s.loadUintBig(64);
  const amount = s.loadCoins();
  const destination = s.loadMaybeAddress();
  const responseDestination = s.loadMaybeAddress();
  const customPayload = s.loadMaybeRef();
  const forwardTonAmount = s.loadCoins();
  const inRef = s.loadBit();
  let forwardPayload: Cell | null;
  if (inRef) {
    forwardPayload = s.loadRef();
  } else {
    forwardPayload = s.remainingBits > 0 || s.remainingRefs > 0 ? beginCell().storeSlice(s).endCell() : null;
  }
  return {
    queryId,
    amount,
    destination,
    responseDestination,
    customPayload,
    forwardTonAmount,
    forwardPayload,
    forwardPayloadInRef: inRef,
  };
}
