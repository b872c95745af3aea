/** Public data types of the Fragment adapter (wire shapes of docs/fragment-protocol.md §5). */

import type { Product } from '@starsgate/domain';

/** The products of the domain's registry; each has its routes in `routes.ts`. */
export type FragmentProduct = Product;

/** Fragment's wire names: `ton` = GRAM (the TON coin), `usdt_ton` = USDT jetton on TON. */
export type FragmentPaymentMethod = 'ton' | 'usdt_ton';

/** TonConnect `account` of the paying wallet (sent as JSON to `get…Link` and `confirmReq`). */
export interface TonConnectAccount {
  /** Raw address `0:<64 hex>`. */
  address: string;
  /** `-239` mainnet, `-3` testnet. */
  chain: '-239' | '-3';
  /** base64 BOC of the wallet's StateInit. */
  walletStateInit: string;
  /** 64 hex chars. */
  publicKey: string;
}

export type TonConnectFeature = string | { name: string; [key: string]: unknown };

/** TonConnect `device` (loosely validated by Fragment). */
export interface TonConnectDevice {
  platform: string;
  appName: string;
  appVersion: string;
  maxProtocolVersion: number;
  features: TonConnectFeature[];
}

export interface FragmentTransactionMessage {
  /** As returned (usually user-friendly `UQ…`). */
  address: string;
  /** nanoTON, decimal integer string. */
  amount: string;
  /** base64url BOC exactly as returned — sign THIS cell, never a re-encoding. */
  payload?: string;
  stateInit?: string;
}

/** A TonConnect `SendTransaction` request plus the data to confirm it afterwards. */
export interface FragmentTransaction {
  /** Unix seconds. */
  validUntil: number;
  /**
   * The wallet Fragment names as sender: the `account` sent, or the wallet linked to the Fragment
   * account (docs/fragment-protocol.md §17). Recorded; the payer signs whatever it says.
   */
  from: string;
  network?: string;
  messages: FragmentTransactionMessage[];
  /** The method to POST after broadcasting (seen only as `confirmReq`); absent = no confirm call. */
  confirmMethod?: string;
  /** Its fields (seen only as `{ id: req_id }`; `{}` without a confirm method). */
  confirmParams: Record<string, string>;
}

export interface RecipientInfo {
  /** Opaque, short-lived token to pass to `initRequest`. */
  recipient: string;
  /** Display name, HTML-unescaped. */
  name: string;
  photoUrl?: string;
}

export interface OrderState {
  /** 'new', 'processing' or 'done' today; any other word Fragment sends is kept as it came. */
  mode: string;
  needUpdate: boolean;
  /** Visible text of the page's status screen ('' when the answer carries none). */
  statusText: string;
}

export interface PriceQuote {
  /** TON price in nanoTON. */
  gramNano: bigint;
  /** USD price, decimal string as displayed. */
  usd: string;
}
