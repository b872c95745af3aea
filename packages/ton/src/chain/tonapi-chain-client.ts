import { Address, Cell, loadTransaction, TupleReader, type Transaction, type TupleItem } from '@ton/core';
import { queryJettonBalance, queryJettonWalletAddress } from './jetton-queries';
import type { AccountState, ChainClient } from './chain-client';
import { ChainRequestError, ChainResponseError } from './chain-errors';
import { httpJson } from './http-json';
import { hashToHex, normalizedExternalHash } from '../transfers/normalized-hash';

export interface TonapiOptions {
  /** e.g. https://tonapi.io (paths /v2/... are appended). */
  baseUrl: string;
  apiKey?: string;
  timeoutMs?: number;
  maxRetries?: number;
  retryBaseDelayMs?: number;
}

const PROVIDER = 'tonapi';

function record(value: unknown, what: string): Record<string, unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new ChainResponseError(`${what}: not an object`, PROVIDER);
  return value as Record<string, unknown>;
}

function integer(value: unknown, what: string): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  throw new ChainResponseError(`${what}: not an exact integer`, PROVIDER);
}

function hexCell(value: unknown): Cell | undefined {
  return typeof value === 'string' && value.length > 0 ? Cell.fromBoc(Buffer.from(value, 'hex'))[0] : undefined;
}

/** tonapi TvmStackRecord[] → TupleReader. */
function parseStack(stack: unknown): TupleReader {
  if (!Array.isArray(stack)) throw new ChainResponseError('stack is not an array', PROVIDER);
  const item = (raw: unknown): TupleItem => {
    const r = record(raw, 'stack record');
    switch (r['type']) {
      case 'num':
        return {
          type: 'int',
          value: String(r['num']).startsWith('-') ? -BigInt(String(r['num']).slice(1)) : BigInt(String(r['num'])),
        };
      case 'null':
        return { type: 'null' };
      case 'nan':
        return { type: 'nan' };
      case 'cell':
        return { type: 'cell', cell: hexCell(r['cell']) ?? Cell.EMPTY };
      case 'slice':
        return { type: 'slice', cell: hexCell(r['slice']) ?? Cell.EMPTY };
      case 'tuple':
        return { type: 'tuple', items: ((r['tuple'] as unknown[]) ?? []).map(item) };
      default:
        throw new ChainResponseError(`unsupported stack record ${String(r['type'])}`, PROVIDER);
    }
  };
  return new TupleReader(stack.map(item));
}

/** Get-method args as tonapi takes them (strings): ints as decimal, slices holding one address as that address. */
function toArg(item: TupleItem): string {
  if (item.type === 'int') return item.value.toString();
  if (item.type === 'slice') {
    const s = item.cell.beginParse();
    const address = s.loadAddress();
    if (s.remainingBits > 0 || s.remainingRefs > 0)
      throw new TypeError('tonapi get-method slices must hold exactly one address');
    return address.toRawString();
  }
  throw new TypeError(`stack item ${item.type} cannot be passed to tonapi get-methods`);
}

/**
 * Second-source ChainClient over tonapi v2 (ton.md §8). Transactions are decoded from the `raw`
 * field: in tonapi's OpenAPI schema `Transaction.raw` is required, `format: cell`, "hex encoded boc
 * with raw transaction" (tonkeeper/opentonapi api/openapi.yml; absent from the 2023 schema). A
 * deployment that does not return it yields ChainResponseError rather than guessed data. tonapi numbers are JSON numbers: an amount beyond 2^53 is refused, not rounded.
 */
export class TonapiChainClient implements ChainClient {
  private readonly root: string;
  private readonly headers: Record<string, string>;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly baseDelayMs: number;

  constructor(options: TonapiOptions) {
    this.root = options.baseUrl.replace(/\/+$/, '');
    this.headers = options.apiKey ? { Authorization: `Bearer ${options.apiKey}` } : {};
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxRetries = options.maxRetries ?? 3;
    this.baseDelayMs = options.retryBaseDelayMs ?? 200;
  }

  private get(path: string, query: Array<[string, string]> = []): Promise<unknown> {
    const url = new URL(this.root + path);
    for (const [k, v] of query) url.searchParams.append(k, v);
    return httpJson(
      url.toString(),
      { method: 'GET' },
      {
        provider: PROVIDER,
        headers: this.headers,
        timeoutMs: this.timeoutMs,
        maxRetries: this.maxRetries,
        baseDelayMs: this.baseDelayMs,
      },
    );
  }

  async getAccountState(address: Address): Promise<AccountState> {
    let r: Record<string, unknown>;
    try {
      r = record(await this.get(`/v2/blockchain/accounts/${address.toRawString()}`), 'account');
    } catch (error) {
      if (error instanceof ChainRequestError && error.status === 404) return { status: 'nonexist', balance: 0n };
      throw error;
    }
    const balance = integer(r['balance'], 'balance');
    const lt = r['last_transaction_lt'] !== undefined ? integer(r['last_transaction_lt'], 'last_transaction_lt') : 0n;
    const lastTransaction =
      lt > 0n && typeof r['last_transaction_hash'] === 'string'
        ? { lt, hash: hashToHex(r['last_transaction_hash']) }
        : undefined;
    const status = r['status'];
    if (status !== 'active' && status !== 'uninit' && status !== 'frozen' && status !== 'nonexist')
      throw new ChainResponseError(`unknown status ${String(status)}`, PROVIDER);
    if (status !== 'active') return { status, balance, lastTransaction };
    const code = hexCell(r['code']);
    return { status, balance, codeHash: code?.hash().toString('hex'), data: hexCell(r['data']), lastTransaction };
  }

  async getSeqno(address: Address): Promise<number> {
    const state = await this.getAccountState(address);
    if (state.status !== 'active') return 0;
    const r = record(await this.get(`/v2/wallet/${address.toRawString()}/seqno`), 'seqno');
    if (typeof r['seqno'] !== 'number') throw new ChainResponseError('seqno missing', PROVIDER);
    return r['seqno'];
  }

  async runGetMethod(
    address: Address,
    method: string,
    stack: TupleItem[] = [],
  ): Promise<{ exitCode: number; stack: TupleReader }> {
    const r = record(
      await this.get(
        `/v2/blockchain/accounts/${address.toRawString()}/methods/${encodeURIComponent(method)}`,
        stack.map((i) => ['args', toArg(i)]),
      ),
      'method',
    );
    const exitCode = Number(r['exit_code']);
    if (!Number.isInteger(exitCode)) throw new ChainResponseError('exit_code missing', PROVIDER);
    return { exitCode, stack: parseStack(r['stack'] ?? []) };
  }

  getJettonWalletAddress(master: Address, owner: Address): Promise<Address> {
    return queryJettonWalletAddress(this, master, owner, PROVIDER);
  }

  getJettonBalance(jettonWallet: Address): Promise<bigint> {
    return queryJettonBalance(this, jettonWallet, PROVIDER);
  }

  async sendBoc(boc: string): Promise<{ normalizedHash: string }> {
    const normalizedHash = normalizedExternalHash(boc);
    await httpJson(
      `${this.root}/v2/blockchain/message`,
      { method: 'POST', body: { boc }, allowEmpty: true },
      { provider: PROVIDER, headers: this.headers, timeoutMs: this.timeoutMs, maxRetries: 0 },
    );
    return { normalizedHash };
  }

  private decode(raw: unknown): Transaction {
    const r = record(raw, 'transaction');
    if (typeof r['raw'] !== 'string') throw new ChainResponseError('transaction without raw BOC', PROVIDER);
    return loadTransaction(Cell.fromBoc(Buffer.from(r['raw'], 'hex'))[0]!.beginParse());
  }

  async getTransactions(
    address: Address,
    opts: { limit?: number; afterLt?: bigint; beforeLt?: bigint } = {},
  ): Promise<Transaction[]> {
    const query: Array<[string, string]> = [
      ['limit', String(Math.min(Math.max(opts.limit ?? 20, 1), 100))],
      ['sort_order', 'desc'],
    ];
    if (opts.afterLt !== undefined) query.push(['after_lt', opts.afterLt.toString()]);
    if (opts.beforeLt !== undefined) query.push(['before_lt', opts.beforeLt.toString()]);
    const r = record(
      await this.get(`/v2/blockchain/accounts/${address.toRawString()}/transactions`, query),
      'transactions',
    );
    if (!Array.isArray(r['transactions'])) throw new ChainResponseError('transactions missing', PROVIDER);
    return r['transactions']
      .map((t) => this.decode(t))
      .filter((t) => opts.afterLt === undefined || t.lt > opts.afterLt);
  }

  async findTransactionByNormalizedHash(
    wallet: Address,
    normalizedHash: string,
    opts: { sinceLt?: bigint } = {},
  ): Promise<Transaction | null> {
    const wanted = hashToHex(normalizedHash);
    let beforeLt: bigint | undefined;
    for (let page = 0; page < 20; page += 1) {
      const txs = await this.getTransactions(wallet, { limit: 50, afterLt: opts.sinceLt, beforeLt });
      for (const tx of txs) {
        if (tx.inMessage?.info.type === 'external-in' && normalizedExternalHash(tx.inMessage) === wanted) return tx;
      }
      const last = txs[txs.length - 1];
      if (txs.length < 50 || !last) return null;
      beforeLt = last.lt;
    }
    return null;
  }

  async findTransactionByInMessageHash(account: Address, messageHash: string): Promise<Transaction | null> {
    let raw: unknown;
    try {
      raw = await this.get(`/v2/blockchain/messages/${hashToHex(messageHash)}/transaction`);
    } catch (error) {
      if (error instanceof ChainRequestError && error.status === 404) return null;
      throw error;
    }
    const tx = this.decode(raw);
    return new Address(0, Buffer.from(tx.address.toString(16).padStart(64, '0'), 'hex')).equals(account) ? tx : null;
  }
}
