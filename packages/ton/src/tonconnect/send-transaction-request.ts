import { Address, beginCell, Cell, loadStateInit, storeStateInit, type StateInit } from '@ton/core';
import type { OutgoingMessage } from '../transfers/build-signed-external';
import { NETWORK_GLOBAL_ID, type Network } from '../network';
import { formatFriendly } from '../wallets/address';

/** Longest validity TON Connect wallets accept without warning. */
export const TONCONNECT_MAX_VALIDITY_SECONDS = 300;

export interface TonConnectMessage {
  /** Friendly, url-safe; its bounce flag is the message's bounce flag. */
  address: string;
  /** nanoGRAM, decimal string. */
  amount: string;
  /** Base64 BOC of the body cell. */
  payload?: string;
  /** Base64 BOC of the StateInit cell. */
  stateInit?: string;
}

/** TON Connect `sendTransaction` request (what the client passes to the wallet). */
export interface SendTransactionRequest {
  validUntil: number;
  network: '-239' | '-3';
  /** Raw `0:hex` payer address; the wallet must not switch account. */
  from: string;
  messages: TonConnectMessage[];
}

export interface CheckoutMessage {
  to: Address;
  bounce: boolean;
  /** nanoGRAM */
  amount: bigint;
  payload?: Cell;
  stateInit?: StateInit;
}

/**
 * Build the request a client-signed checkout hands to TON Connect. `validUntil` (unix seconds)
 * must be in the future and at most 5 minutes after `now`; 1..255 messages; amounts are exact
 * decimal strings of nanoGRAM; addresses are friendly (testOnly on testnet) carrying the bounce flag.
 */
export function buildSendTransactionRequest(args: {
  network: Network;
  from: Address;
  validUntil: number;
  messages: CheckoutMessage[];
  now?: number;
}): SendTransactionRequest {
  const now = args.now ?? Math.floor(Date.now() / 1000);
  if (
    !Number.isInteger(args.validUntil) ||
    args.validUntil <= now ||
    args.validUntil > now + TONCONNECT_MAX_VALIDITY_SECONDS
  ) {
    throw new RangeError('validUntil must be in the future and at most 5 minutes ahead');
  }
  if (args.messages.length === 0 || args.messages.length > 255) throw new RangeError('1 to 255 messages');
  return {
    validUntil: args.validUntil,
    network: String(NETWORK_GLOBAL_ID[args.network]) as '-239' | '-3',
    from: args.from.toRawString(),
    messages: args.messages.map((m) => {
      if (typeof m.amount !== 'bigint' || m.amount < 0n) throw new RangeError('amount must be a non-negative bigint');
      const out: TonConnectMessage = {
        address: formatFriendly(m.to, args.network, m.bounce),
        amount: m.amount.toString(),
      };
      if (m.payload) out.payload = m.payload.toBoc().toString('base64');
      if (m.stateInit)
        out.stateInit = beginCell().store(storeStateInit(m.stateInit)).endCell().toBoc().toString('base64');
      return out;
    }),
  };
}

/**
 * What a wallet signs for a request: each message with its bounce flag taken from the friendly
 * address, its body and StateInit decoded from their base64 BOCs, as buildSignedExternal takes
 * them (the chaos and soak drivers and the fuzz suite play the payer's wallet with it).
 */
export function requestMessages(request: Pick<SendTransactionRequest, 'messages'>): OutgoingMessage[] {
  return request.messages.map((message) => {
    const to = Address.parseFriendly(message.address);
    return {
      to: to.address,
      bounce: to.isBounceable,
      value: BigInt(message.amount),
      body: message.payload ? Cell.fromBase64(message.payload) : Cell.EMPTY,
      ...(message.stateInit ? { init: loadStateInit(Cell.fromBase64(message.stateInit).beginParse()) } : {}),
    };
  });
}
