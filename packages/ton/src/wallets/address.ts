import { Address } from '@ton/core';
import { AppError } from '@starsgate/domain';
import type { Network } from '../network';

const RAW = /^(-?\d{1,3}):([0-9a-fA-F]{64})$/;
const FRIENDLY = /^[A-Za-z0-9+/_-]{48}$/;

export interface ParsedWalletAddress {
  address: Address;
  /** How the user wrote it: 'raw' carries no flags. */
  form: 'friendly' | 'raw';
  /** The user's bounce intent (friendly form only; raw ⇒ null). */
  bounceable: boolean | null;
  testOnly: boolean;
}

function invalid(field: string, message: string): AppError {
  return AppError.field('INVALID_WALLET_ADDRESS', field, message);
}

/**
 * Parse a wallet address with the checks @ton/core leaves out: anchored formats only (friendly:
 * 48 Base64/Base64url characters with a valid CRC16; raw: `wc:64hex`), workchain 0 only, and the
 * friendly testOnly flag must match `network`. Keeps the user's bounce flag in `bounceable`.
 */
export function parseWalletAddressDetailed(
  input: string,
  network: Network,
  field = 'wallet_address',
): ParsedWalletAddress {
  if (typeof input !== 'string') throw invalid(field, 'The address must be a string.');
  const text = input.trim();
  const raw = RAW.exec(text);
  let parsed: ParsedWalletAddress;
  if (raw) {
    const workchain = Number(raw[1]);
    if (workchain !== 0)
      throw invalid(field, `Only workchain 0 addresses are accepted; this one is in workchain ${workchain}.`);
    parsed = {
      address: new Address(0, Buffer.from(raw[2] as string, 'hex')),
      form: 'raw',
      bounceable: null,
      testOnly: false,
    };
  } else if (FRIENDLY.test(text)) {
    let friendly: ReturnType<typeof Address.parseFriendly>;
    try {
      friendly = Address.parseFriendly(text);
    } catch {
      throw invalid(field, 'The address is not a valid friendly address (bad checksum or tag).');
    }
    if (friendly.address.workChain !== 0) {
      throw invalid(
        field,
        `Only workchain 0 addresses are accepted; this one is in workchain ${friendly.address.workChain}.`,
      );
    }
    if (friendly.isTestOnly && network === 'mainnet') {
      throw invalid(field, 'This is a testnet address (testOnly flag); the service runs on mainnet.');
    }
    if (!friendly.isTestOnly && network === 'testnet') {
      throw invalid(
        field,
        'This is a mainnet address (no testOnly flag); the service runs on testnet. Send the testnet form (0Q…/kQ…) or the raw form.',
      );
    }
    parsed = {
      address: friendly.address,
      form: 'friendly',
      bounceable: friendly.isBounceable,
      testOnly: friendly.isTestOnly,
    };
  } else {
    throw invalid(field, 'The address is neither a friendly address (48 characters) nor a raw address (0:<64 hex>).');
  }
  return parsed;
}

/** `parseWalletAddressDetailed(...).address`. */
export function parseWalletAddress(input: string, network: Network, field = 'wallet_address'): Address {
  return parseWalletAddressDetailed(input, network, field).address;
}

/** Display forms: non-bounceable url-safe friendly (testOnly on testnet) and canonical raw `0:hex`. */
export function formatAddress(address: Address, network: Network): { friendly: string; raw: string } {
  return {
    friendly: address.toString({ urlSafe: true, bounceable: false, testOnly: network === 'testnet' }),
    raw: address.toRawString(),
  };
}

/** Friendly form with an explicit bounce flag (TON Connect messages carry bounce in the address). */
export function formatFriendly(address: Address, network: Network, bounceable: boolean): string {
  return address.toString({ urlSafe: true, bounceable, testOnly: network === 'testnet' });
}
