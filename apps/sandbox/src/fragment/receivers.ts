import type { Address } from '@ton/core';
import { WalletContractV5R1 } from '@ton/ton';
import { keyPairFromSeed } from '@starsgate/ton';
import type { FragmentSimulatorConfig } from './config';
import { RECEIVER_NAMES, type ReceiverName } from './products/pack';
import type { SeededRandom } from './random';
import { parseAddressLoose } from './sessions';

/** Fragment's receiving wallets by name, and `unknown`: off the allow-list, used by the unknownReceiver fault. */
export type Receivers = Record<ReceiverName, Address> & { unknown: Address };

/** A V5R1 wallet from a seed-derived key: a local sandbox wallet, deterministic per seed. */
export function receiverWallet<L extends string>(
  random: SeededRandom,
  label: L,
): { label: L; contract: WalletContractV5R1; secretKey: Buffer } {
  const keys = keyPairFromSeed(random.derive(`receiver:${label}`, 32));
  return {
    label,
    contract: WalletContractV5R1.create({ workchain: 0, publicKey: keys.publicKey }),
    secretKey: keys.secretKey,
  };
}

function walletFor(random: SeededRandom, label: string): Address {
  return receiverWallet(random, label).contract.address;
}

/**
 * Fragment's receiving wallets in the sandbox (docs/fragment-protocol.md §14.2): local wallets;
 * the real ones only as labels.
 */
export function deriveReceivers(random: SeededRandom, config: FragmentSimulatorConfig): Receivers {
  const override = (text: string | undefined, label: string) => {
    if (text === undefined) return walletFor(random, label);
    const parsed = parseAddressLoose(text);
    if (!parsed) throw new Error(`invalid receiver address for ${label}: ${text}`);
    return parsed;
  };
  const named = Object.fromEntries(RECEIVER_NAMES.map((name) => [name, override(config.receivers?.[name], name)]));
  return { ...(named as Record<ReceiverName, Address>), unknown: walletFor(random, 'unknown') };
}
