import { Address, beginCell, Cell, contractAddress } from '@ton/core';
import { WalletContractV3R2, WalletContractV4, WalletContractV5R1 } from './wallet-classes';
import { NETWORK_GLOBAL_ID, type Network } from '../network';

export type WalletVersion = 'V5R1' | 'V4R2' | 'V3R2';
export type WalletContract = WalletContractV5R1 | WalletContractV4 | WalletContractV3R2;

/** Order used when several candidates are listed: newest first, V5R1 is the default. */
export const WALLET_VERSIONS: readonly WalletVersion[] = ['V5R1', 'V4R2', 'V3R2'];

/** Most messages one external may carry, per version. */
export const MAX_MESSAGES: Readonly<Record<WalletVersion, number>> = { V5R1: 255, V4R2: 4, V3R2: 4 };

/** V3R2/V4R2 subwallet id (network independent). */
export const DEFAULT_V3_V4_WALLET_ID = 698983191;

/** V5R1 wallet_id for subwallet 0 on workchain 0: mainnet 2147483409, testnet 2147483645. */
export function v5r1WalletId(network: Network): number {
  const context = (1 << 31) | (0 << 23) | (0 << 15) | 0; // flag ‖ int8 wc ‖ uint8 version ‖ uint15 subwallet
  return (NETWORK_GLOBAL_ID[network] ^ context) >>> 0;
}

/**
 * The wallet contract of `version` for `publicKey`, workchain 0, subwallet 0. V5R1 takes the
 * network's global id (−239 / −3) into wallet_id, so its address differs per network; V4R2 and
 * V3R2 do not.
 */
export function createWalletContract(version: 'V5R1', publicKey: Buffer, network: Network): WalletContractV5R1;
export function createWalletContract(version: 'V4R2', publicKey: Buffer, network: Network): WalletContractV4;
export function createWalletContract(version: 'V3R2', publicKey: Buffer, network: Network): WalletContractV3R2;
export function createWalletContract(version: WalletVersion, publicKey: Buffer, network: Network): WalletContract;
export function createWalletContract(version: WalletVersion, publicKey: Buffer, network: Network): WalletContract {
  if (publicKey.length !== 32) throw new RangeError('an ed25519 public key is 32 bytes');
  // @ton/ton parses the contract's code BOC on every construction; the worker builds the same
  // few wallets for every purchase. Contracts hold public data only and are never mutated.
  const key = `${version}:${network}:${publicKey.toString('hex')}`;
  const cached = contracts.get(key);
  if (cached) return cached;
  const contract = buildWalletContract(version, Buffer.from(publicKey), network);
  contracts.set(key, contract);
  if (contracts.size > MAX_CACHED_CONTRACTS) contracts.delete(contracts.keys().next().value as string);
  return contract;
}

const MAX_CACHED_CONTRACTS = 1_024;
const contracts = new Map<string, WalletContract>();

function buildWalletContract(version: WalletVersion, publicKey: Buffer, network: Network): WalletContract {
  switch (version) {
    case 'V5R1':
      return WalletContractV5R1.create({
        publicKey,
        walletId: {
          networkGlobalId: NETWORK_GLOBAL_ID[network],
          context: { workchain: 0, walletVersion: 'v5r1', subwalletNumber: 0 },
        },
      });
    case 'V4R2':
      return WalletContractV4.create({ workchain: 0, publicKey });
    case 'V3R2':
      return WalletContractV3R2.create({ workchain: 0, publicKey });
    default:
      throw new RangeError(`unknown wallet version ${String(version)}`);
  }
}

export function walletVersionOf(wallet: WalletContract): WalletVersion {
  if (wallet instanceof WalletContractV5R1) return 'V5R1';
  if (wallet instanceof WalletContractV4) return 'V4R2';
  if (wallet instanceof WalletContractV3R2) return 'V3R2';
  throw new TypeError('unsupported wallet contract');
}

let codeHashes: Map<string, WalletVersion> | undefined;

/** Wallet version from a code hash (hex), using the code cells shipped in @ton/ton. */
export function walletVersionByCodeHash(codeHashHex: string): WalletVersion | null {
  if (!codeHashes) {
    const key = Buffer.alloc(32);
    codeHashes = new Map(
      WALLET_VERSIONS.map((v) => [createWalletContract(v, key, 'mainnet').init.code.hash().toString('hex'), v]),
    );
  }
  return codeHashes.get(codeHashHex.toLowerCase()) ?? null;
}

export function walletVersionByCode(code: Cell): WalletVersion | null {
  return walletVersionByCodeHash(code.hash().toString('hex'));
}

const codeCells = new Map<WalletVersion, Cell>();

/** The code cell @ton/ton ships for `version`, parsed once (its hash is then computed once too). */
function walletCode(version: WalletVersion): Cell {
  let code = codeCells.get(version);
  if (!code) {
    code = buildWalletContract(version, Buffer.alloc(32), 'mainnet').init.code;
    codeCells.set(version, code);
  }
  return code;
}

/** The data cell of a fresh wallet (seqno 0), as @ton/ton's constructors build it. */
function walletData(version: WalletVersion, publicKey: Buffer, network: Network): Cell {
  switch (version) {
    case 'V5R1':
      return beginCell()
        .storeUint(1, 1) // signature auth allowed
        .storeUint(0, 32) // seqno
        .storeUint(v5r1WalletId(network), 32)
        .storeBuffer(publicKey, 32)
        .storeBit(0) // no extensions
        .endCell();
    case 'V4R2':
      return beginCell()
        .storeUint(0, 32) // seqno
        .storeUint(DEFAULT_V3_V4_WALLET_ID, 32)
        .storeBuffer(publicKey, 32)
        .storeBit(0) // no plugins
        .endCell();
    case 'V3R2':
      return beginCell()
        .storeUint(0, 32) // seqno
        .storeUint(DEFAULT_V3_V4_WALLET_ID, 32)
        .storeBuffer(publicKey, 32)
        .endCell();
    default:
      throw new RangeError(`unknown wallet version ${String(version)}`);
  }
}

/**
 * The address of `version`'s wallet (workchain 0, subwallet 0) without building a contract
 * object: the same StateInit as @ton/ton's contracts (asserted in tests) with the code cell parsed
 * once. A contract costs a code BOC parse and its hashing (~1–2 ms of CPU for V4R2 and V5R1), and
 * listing a new seed's three candidates needs their addresses only. Used by the 101-index scan of
 * 12-word seeds too.
 */
export function walletAddress(version: WalletVersion, publicKey: Buffer, network: Network): Address {
  if (publicKey.length !== 32) throw new RangeError('an ed25519 public key is 32 bytes');
  return contractAddress(0, { code: walletCode(version), data: walletData(version, publicKey, network) });
}

export function v5r1Address(publicKey: Buffer, network: Network): Address {
  return walletAddress('V5R1', publicKey, network);
}
