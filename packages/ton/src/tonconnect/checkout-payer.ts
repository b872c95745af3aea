import { Address, Cell, contractAddress, loadStateInit, type StateInit } from '@ton/core';
import { AppError } from '@starsgate/domain';
import type { ChainClient } from '../chain/chain-client';
import type { Network } from '../network';
import {
  createWalletContract,
  walletVersionByCode,
  walletVersionByCodeHash,
  type WalletContract,
  type WalletVersion,
} from '../wallets/wallet-contracts';
import { parseWalletData } from './verify-signed-boc';

/** The buyer's wallet of a checkout: what Fragment's order and the BOC verification need to know. */
export interface CheckoutPayer {
  address: Address;
  version: WalletVersion;
  publicKey: Buffer;
  contract: WalletContract;
  deployed: boolean;
}

/** What TON Connect's `account` hands a dApp besides the address. */
export interface SuppliedPayerKeys {
  /** 64 hex. */
  publicKey?: string | null;
  /** Base64 BOC of the wallet's StateInit. */
  stateInit?: string | null;
}

function parseStateInit(base64: string): StateInit {
  try {
    return loadStateInit(Cell.fromBase64(base64).beginParse());
  } catch {
    throw AppError.field(
      'CHECKOUT_PAYER_STATE_INIT_MISMATCH',
      'payer_state_init',
      'payer_state_init is not a Base64 StateInit BOC.',
    );
  }
}

function unsupported(field: string, message: string): AppError {
  return AppError.field('CHECKOUT_PAYER_WALLET_UNSUPPORTED', field, message);
}

/**
 * Identifies the payer wallet of a checkout. A deployed wallet's version and key are read from the
 * chain; a wallet not deployed yet needs TON Connect's publicKey and walletStateInit
 * (CHECKOUT_PAYER_KEY_REQUIRED), whose StateInit must hash to the address and carry that key
 * (CHECKOUT_PAYER_STATE_INIT_MISMATCH). Only standard wallets of `network` with their default
 * wallet id are payable (CHECKOUT_PAYER_WALLET_UNSUPPORTED): Fragment's order and the signature
 * checks are built for them. Chain errors propagate (typed chain errors).
 */
export async function resolveCheckoutPayer(
  address: Address,
  supplied: SuppliedPayerKeys,
  deps: { network: Network; chain: Pick<ChainClient, 'getAccountState'> },
): Promise<CheckoutPayer> {
  const suppliedKey = supplied.publicKey ? Buffer.from(supplied.publicKey, 'hex') : undefined;
  const init = supplied.stateInit ? parseStateInit(supplied.stateInit) : undefined;
  if (init && (!init.code || !init.data || !contractAddress(0, { code: init.code, data: init.data }).equals(address)))
    throw AppError.field(
      'CHECKOUT_PAYER_STATE_INIT_MISMATCH',
      'payer_state_init',
      'payer_state_init does not hash to payer_address.',
    );

  const state = await deps.chain.getAccountState(address);
  const deployed = state.status === 'active';
  let version: WalletVersion | null;
  let data: Cell | undefined;
  if (deployed) {
    version = state.codeHash ? walletVersionByCodeHash(state.codeHash) : null;
    data = state.data;
  } else {
    if (!suppliedKey || !init)
      throw AppError.field(
        'CHECKOUT_PAYER_KEY_REQUIRED',
        suppliedKey ? 'payer_state_init' : 'payer_public_key',
        'The payer wallet is not deployed: send payer_public_key and payer_state_init from TON Connect.',
      );
    version = walletVersionByCode(init.code!);
    data = init.data!;
  }
  if (!version || !data) throw unsupported('payer_address', 'The payer account is not a V5R1, V4R2 or V3R2 wallet.');
  let publicKey: Buffer;
  try {
    publicKey = parseWalletData(version, data).publicKey;
  } catch {
    throw unsupported('payer_address', "The payer wallet's data does not parse.");
  }
  if (suppliedKey && !suppliedKey.equals(publicKey))
    throw AppError.field(
      'CHECKOUT_PAYER_STATE_INIT_MISMATCH',
      'payer_public_key',
      deployed
        ? 'payer_public_key is not the key of the deployed payer wallet.'
        : 'payer_public_key is not the key in payer_state_init.',
    );
  const contract = createWalletContract(version, publicKey, deps.network);
  if (!contract.address.equals(address))
    throw unsupported('payer_address', `The payer wallet does not use the default ${deps.network} wallet id.`);
  return { address, version, publicKey, contract, deployed };
}
