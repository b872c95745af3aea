import { createHmac } from 'node:crypto';
import {
  Address,
  beginCell,
  external,
  internal,
  SendMode,
  storeMessage,
  type Cell,
  type MessageRelaxed,
  type StateInit,
} from '@ton/core';
import { WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import { mnemonicValidate, mnemonicWordList, sha256_sync } from '@ton/crypto';
import { cellSigner, createWalletContract, deriveKeyPair, type Network, type WalletVersion } from '@starsgate/ton';
import { createHmac as hmac512 } from 'node:crypto';
import type { LocalChain } from '../chain/local-chain';

/** Network the demo wallets are built for (V5R1 wallet_id uses its global id). */
export const DEMO_NETWORK: Network = 'mainnet';

export type DemoSeedFormat = 'bip39_12' | 'ton_24' | 'base64_key';

export interface DemoWallet {
  /** Stable id used in docs and tests. */
  id: 'bip39-0' | 'bip39-1' | 'ton24-v4r2' | 'base64-v5r1' | 'poor-v5r1';
  description: string;
  format: DemoSeedFormat;
  /** The seed exactly as an operator would paste it (mnemonic words or Base64 key). */
  seed: string;
  accountIndex: number;
  version: WalletVersion;
  network: Network;
  /** Non-bounceable friendly address (UQ...). */
  address: string;
  rawAddress: string;
  publicKeyHex: string;
  /** Whether the sandbox deploys the contract at start (else the first transfer carries init). */
  deployed: boolean;
  /** Initial funding, decimal strings. */
  funding: { gram: string; usdt: string };
}

interface DemoPlan {
  id: DemoWallet['id'];
  description: string;
  format: DemoSeedFormat;
  accountIndex: number;
  version: WalletVersion;
  deploy: boolean;
  gram: bigint;
  usdt: bigint;
}

const GRAM = 1_000_000_000n;
const USDT = 1_000_000n;

const PLANS: DemoPlan[] = [
  {
    id: 'bip39-0',
    description:
      "12-word BIP39 seed, account 0 (m/44'/607'/0'), V5R1, not yet deployed: the first transfer deploys it.",
    format: 'bip39_12',
    accountIndex: 0,
    version: 'V5R1',
    deploy: false,
    gram: 1000n * GRAM,
    usdt: 10_000n * USDT,
  },
  {
    id: 'bip39-1',
    description: "Same 12-word seed, account 1 (m/44'/607'/1'), V5R1, not yet deployed.",
    format: 'bip39_12',
    accountIndex: 1,
    version: 'V5R1',
    deploy: false,
    gram: 500n * GRAM,
    usdt: 5_000n * USDT,
  },
  {
    id: 'ton24-v4r2',
    description: '24-word TON mnemonic deployed as V4R2 (exercises wallet version detection).',
    format: 'ton_24',
    accountIndex: 0,
    version: 'V4R2',
    deploy: true,
    gram: 1000n * GRAM,
    usdt: 10_000n * USDT,
  },
  {
    id: 'base64-v5r1',
    description: 'Base64 32-byte private key, V5R1, deployed.',
    format: 'base64_key',
    accountIndex: 0,
    version: 'V5R1',
    deploy: true,
    gram: 1000n * GRAM,
    usdt: 10_000n * USDT,
  },
  {
    id: 'poor-v5r1',
    description:
      'Base64 key with 0.02 GRAM and no USDT, V5R1, not deployed: purchases need a top-up (TOP_UP_REQUIRED).',
    format: 'base64_key',
    accountIndex: 0,
    version: 'V5R1',
    deploy: false,
    gram: 20_000_000n,
    usdt: 0n,
  },
];

const hmac = (seedValue: string, label: string): Buffer => createHmac('sha256', seedValue).update(label).digest();

/** BIP39 English mnemonic of 16 bytes of entropy (128 bits + 4 checksum bits = 12 words). */
export function entropyToBip39Mnemonic(entropy: Buffer): string[] {
  if (entropy.length !== 16) throw new RangeError('12-word BIP39 needs 16 bytes of entropy');
  const checksum = (sha256_sync(entropy)[0] as number) >> 4;
  let bits = BigInt('0x' + entropy.toString('hex'));
  bits = (bits << 4n) | BigInt(checksum);
  const words: string[] = [];
  for (let i = 11; i >= 0; i--) words.push(mnemonicWordList[Number((bits >> BigInt(i * 11)) & 2047n)] as string);
  return words;
}

/** Deterministic TON-native 24-word mnemonic: HMAC-SHA512(seedValue, "ton-24:<n>") for n = 0, 1, ... until mnemonicValidate passes. */
export async function deterministicTonMnemonic(seedValue: string): Promise<string[]> {
  for (let counter = 0; counter < 100_000; counter++) {
    const bytes = hmac512('sha512', seedValue).update(`ton-24:${counter}`).digest();
    let bits = BigInt('0x' + bytes.toString('hex'));
    const words: string[] = [];
    for (let i = 0; i < 24; i++) {
      words.push(mnemonicWordList[Number(bits & 2047n)] as string);
      bits >>= 11n;
    }
    if (await mnemonicValidate(words)) return words;
  }
  throw new Error('no valid TON mnemonic found');
}

/** The demo seeds derived from `seedValue` (SANDBOX_SEED): same value, same wallets. */
export async function demoSeeds(seedValue: string): Promise<Record<DemoWallet['id'], string>> {
  const bip39 = entropyToBip39Mnemonic(hmac(seedValue, 'bip39-12').subarray(0, 16)).join(' ');
  const ton24 = (await deterministicTonMnemonic(seedValue)).join(' ');
  return {
    'bip39-0': bip39,
    'bip39-1': bip39,
    'ton24-v4r2': ton24,
    'base64-v5r1': hmac(seedValue, 'base64-key').toString('base64'),
    'poor-v5r1': hmac(seedValue, 'poor-base64-key').toString('base64'),
  };
}

/** Derives the demo wallets (no chain access). */
export async function deriveDemoWallets(seedValue: string): Promise<DemoWallet[]> {
  const seeds = await demoSeeds(seedValue);
  return Promise.all(
    PLANS.map(async (plan) => {
      const seed = seeds[plan.id];
      const keys = await deriveKeyPair(seed, plan.format, plan.accountIndex);
      const contract = createWalletContract(plan.version, keys.publicKey, DEMO_NETWORK);
      return {
        id: plan.id,
        description: plan.description,
        format: plan.format,
        seed,
        accountIndex: plan.accountIndex,
        version: plan.version,
        network: DEMO_NETWORK,
        address: contract.address.toString({ bounceable: false, urlSafe: true }),
        rawAddress: contract.address.toRawString(),
        publicKeyHex: keys.publicKey.toString('hex'),
        deployed: plan.deploy,
        funding: { gram: formatNano(plan.gram, 9), usdt: formatNano(plan.usdt, 6) },
      };
    }),
  );
}

function formatNano(v: bigint, decimals: number): string {
  const base = 10n ** BigInt(decimals);
  const frac = (v % base).toString().padStart(decimals, '0').replace(/0+$/, '');
  return frac ? `${v / base}.${frac}` : `${v / base}`;
}

/**
 * Funds and (where planned) deploys the demo wallets on a fresh chain. Skipped when the V4R2
 * demo wallet is already active (state restored from disk).
 */
export async function seedDemoWallets(chain: LocalChain, seedValue: string): Promise<DemoWallet[]> {
  const wallets = await deriveDemoWallets(seedValue);
  const v4 = wallets.find((w) => w.id === 'ton24-v4r2');
  if (v4 && (await chain.getAccount(Address.parse(v4.address))).status === 'active') return wallets;

  await Promise.all(
    PLANS.map((plan) => {
      const w = wallets.find((x) => x.id === plan.id) as DemoWallet;
      return chain.fund(Address.parse(w.address), { gram: plan.gram, usdt: plan.usdt });
    }),
  );
  const seeds = await demoSeeds(seedValue);
  for (const plan of PLANS.filter((p) => p.deploy)) {
    const keys = await deriveKeyPair(seeds[plan.id], plan.format, plan.accountIndex);
    const contract = createWalletContract(plan.version, keys.publicKey, DEMO_NETWORK);
    const messages: MessageRelaxed[] = [internal({ to: contract.address, value: 1n, bounce: false, body: 'deploy' })];
    const sendMode = SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS;
    const signer = cellSigner(keys.secretKey);
    const body: Cell =
      contract instanceof WalletContractV5R1
        ? await contract.createTransfer({ seqno: 0, signer, messages, sendMode })
        : contract instanceof WalletContractV4
          ? await contract.createTransfer({ seqno: 0, signer, messages, sendMode })
          : await contract.createTransfer({ seqno: 0, signer, messages, sendMode });
    await deployWithFirstExternal(chain, contract, body);
  }
  return wallets;
}

/** Sends a wallet's first signed external (with its StateInit) and waits until the chain ran it. */
export async function deployWithFirstExternal(
  chain: LocalChain,
  contract: { address: Address; init: StateInit },
  body: Cell,
): Promise<void> {
  const boc = beginCell()
    .store(storeMessage(external({ to: contract.address, init: contract.init, body })))
    .endCell()
    .toBoc();
  const { hash } = await chain.submitExternal(boc);
  await chain.waitForTransaction(hash, Math.max(10_000, chain.blockMs * 20));
}
