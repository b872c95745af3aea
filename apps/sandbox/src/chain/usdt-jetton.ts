import { Address, beginCell, Cell, contractAddress, type StateInit } from '@ton/core';
import { JETTON_MINTER_CODE, JETTON_WALLET_CODE, type CompiledContract } from '@starsgate/ton/testing';

/**
 * USDT stand-in: the standard TEP-74 jetton (minter + wallet), compiled from the FunC sources in
 * apps/sandbox/contracts/jetton (the compiled code: @starsgate/ton/testing). Differs from real USDT in code hash, gas
 * model and governance ops.
 */
export const USDT_DECIMALS = 6;

export const JettonOp = {
  mint: 21,
  transfer: 0x0f8a7ea5,
  internalTransfer: 0x178d4519,
  transferNotification: 0x7362d09c,
  excesses: 0xd53276db,
} as const;

function loadCode(name: string, compiled: CompiledContract): Cell {
  const [cell] = Cell.fromBoc(Buffer.from(compiled.boc, 'base64'));
  if (!cell) throw new Error(`empty ${name} code`);
  const hash = cell.hash().toString('hex');
  if (hash !== compiled.codeHash) throw new Error(`${name} code hash ${hash}, expected ${compiled.codeHash}`);
  return cell;
}

let cached: { minter: Cell; wallet: Cell } | undefined;
export function jettonCode(): { minter: Cell; wallet: Cell } {
  cached ??= {
    minter: loadCode('jetton minter', JETTON_MINTER_CODE),
    wallet: loadCode('jetton wallet', JETTON_WALLET_CODE),
  };
  return cached;
}

/** TEP-64 off-chain content cell (0x01 prefix + URI). */
function offchainContent(uri: string): Cell {
  return beginCell().storeUint(1, 8).storeStringTail(uri).endCell();
}

/** StateInit of the USDT stand-in minter administered by `admin` (deterministic address). */
export function usdtMinterInit(admin: Address): { address: Address; init: StateInit } {
  const { minter, wallet } = jettonCode();
  const data = beginCell()
    .storeCoins(0)
    .storeAddress(admin)
    .storeRef(offchainContent('starsgate-sandbox://usdt.json'))
    .storeRef(wallet)
    .endCell();
  const init = { code: minter, data };
  return { address: contractAddress(0, init), init };
}

/** Body of the minter's `mint` op: mints `amount` to `to`'s jetton wallet, excess back to `response`. */
export function mintBody(args: {
  minter: Address;
  to: Address;
  amount: bigint;
  response: Address;
  walletTon: bigint;
  queryId?: bigint;
}): Cell {
  const internalTransfer = beginCell()
    .storeUint(JettonOp.internalTransfer, 32)
    .storeUint(args.queryId ?? 0n, 64)
    .storeCoins(args.amount)
    .storeAddress(args.minter)
    .storeAddress(args.response)
    .storeCoins(0)
    .storeBit(false)
    .endCell();
  return beginCell()
    .storeUint(JettonOp.mint, 32)
    .storeUint(args.queryId ?? 0n, 64)
    .storeAddress(args.to)
    .storeCoins(args.walletTon)
    .storeRef(internalTransfer)
    .endCell();
}

/** TEP-74 `transfer` body sent by an owner to its own jetton wallet. */
export function jettonTransferBody(args: {
  amount: bigint;
  destination: Address;
  responseDestination: Address;
  forwardTonAmount?: bigint;
  forwardPayload?: Cell;
  queryId?: bigint;
}): Cell {
  const b = beginCell()
    .storeUint(JettonOp.transfer, 32)
    .storeUint(args.queryId ?? 0n, 64)
    .storeCoins(args.amount)
    .storeAddress(args.destination)
    .storeAddress(args.responseDestination)
    .storeBit(false)
    .storeCoins(args.forwardTonAmount ?? 0n);
  if (args.forwardPayload) b.storeBit(true).storeRef(args.forwardPayload);
  else b.storeBit(false);
  return b.endCell();
}
