import { Address, beginCell, Cell } from '@ton/core';

export const OP_JETTON_TRANSFER = 0x0f8a7ea5;
export const OP_TRANSFER_NOTIFICATION = 0x7362d09c;

export interface JettonTransfer {
  queryId: bigint;
  /** Jetton units (USDT: 6 decimals). */
  amount: bigint;
  destination: Address;
  responseDestination: Address;
  forwardTonAmount: bigint;
  /** Carried in a ref (Either bit = 1). */
  forwardPayload: Cell;
}

/**
 * TEP-74 `transfer#0f8a7ea5` with no custom payload and the forward payload in a ref
 * (docs/fragment-protocol.md §6.3).
 */
export function buildJettonTransfer(t: JettonTransfer): Cell {
  return beginCell()
    .storeUint(OP_JETTON_TRANSFER, 32)
    .storeUint(t.queryId, 64)
    .storeCoins(t.amount)
    .storeAddress(t.destination)
    .storeAddress(t.responseDestination)
    .storeBit(0) // custom_payload: Maybe ^Cell = nothing
    .storeCoins(t.forwardTonAmount)
    .storeBit(1) // forward_payload: Either Cell ^Cell = right (ref)
    .storeRef(t.forwardPayload)
    .endCell();
}

export function parseJettonTransfer(cell: Cell): JettonTransfer | undefined {
  try {
    const s = cell.beginParse();
    if (s.loadUint(32) !== OP_JETTON_TRANSFER) return undefined;
    const queryId = s.loadUintBig(64);
    const amount = s.loadCoins();
    const destination = s.loadAddress();
    const responseDestination = s.loadAddress();
    if (s.loadBit()) s.loadRef();
    const forwardTonAmount = s.loadCoins();
    const forwardPayload = s.loadBit() ? s.loadRef() : s.asCell();
    return { queryId, amount, destination, responseDestination, forwardTonAmount, forwardPayload };
  } catch {
    return undefined;
  }
}

export interface TransferNotification {
  queryId: bigint;
  amount: bigint;
  /** The original sender (owner of the sending jetton wallet). */
  sender: Address;
  forwardPayload: Cell;
}

/** TEP-74 `transfer_notification#7362d09c query_id amount sender forward_payload:(Either Cell ^Cell)`. */
export function parseTransferNotification(cell: Cell): TransferNotification | undefined {
  try {
    const s = cell.beginParse();
    if (s.loadUint(32) !== OP_TRANSFER_NOTIFICATION) return undefined;
    const queryId = s.loadUintBig(64);
    const amount = s.loadCoins();
    const sender = s.loadAddress();
    const forwardPayload = s.remainingBits > 0 && s.loadBit() ? s.loadRef() : s.asCell();
    return { queryId, amount, sender, forwardPayload };
  } catch {
    return undefined;
  }
}
