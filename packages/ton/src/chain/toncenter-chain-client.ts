import { Address, Cell, loadTransaction, type Transaction, type TupleItem, type TupleReader } from '@ton/core';
import { queryJettonBalance, queryJettonWalletAddress } from './jetton-queries';
import type { AccountState, ChainClient, TransactionScan, WalkEnd, WalkOptions } from './chain-client';
import { ChainRequestError, ChainResponseError } from './chain-errors';
import { httpJson } from './http-json';
import type { RequestPacer } from './request-pacer';
import { fromToncenterStack, toToncenterStack } from './toncenter-stack';
import { hashToHex, normalizedExternalHash } from '../transfers/normalized-hash';

export interface ToncenterOptions {
  /** Root, e.g. https://toncenter.com or http://127.0.0.1:8090/toncenter; paths /api/v2, /api/v3 are appended. */
  baseUrl: string;
  apiKey?: string;
  timeoutMs?: number;
  /** Retries for reads (default 3). sendBoc is never retried. */
  maxRetries?: number;
  /** First backoff step in ms (default 200). */
  retryBaseDelayMs?: number;
  /** Shares the provider's rate limit with every other replica (docs/ton.md §9); none = unpaced. */
  pacer?: RequestPacer;
}

const PROVIDER = 'toncenter';
const PAGE = 50;
const MAX_SCAN_PAGES = 20;

function asRecord(value: unknown, what: string): Record<string, unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new ChainResponseError(`${what}: not an object`, PROVIDER);
  return value as Record<string, unknown>;
}

function bigintOf(value: unknown, what: string): bigint {
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  throw new ChainResponseError(`${what}: not an integer`, PROVIDER);
}

function optionalCell(value: unknown): Cell | undefined {
  return typeof value === 'string' && value.length > 0 ? Cell.fromBase64(value) : undefined;
}

/** Every wallet of one version runs the same code: its hash is computed once per code BOC. */
const codeHashes = new Map<string, string>();

function codeHashOf(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0) return undefined;
  let hash = codeHashes.get(value);
  if (hash === undefined) {
    hash = Cell.fromBase64(value).hash().toString('hex');
    if (codeHashes.size >= 64) codeHashes.clear();
    codeHashes.set(value, hash);
  }
  return hash;
}

/**
 * ChainClient over toncenter's HTTP API (v2 for state, get-methods, sending and raw transactions;
 * v3 for lookups by message hash). Uses only: v2 getAddressInformation, getWalletInformation,
 * runGetMethod, sendBocReturnHash, getTransactions; v3 transactionsByMessage.
 */
export class ToncenterChainClient implements ChainClient {
  private readonly root: string;
  private readonly headers: Record<string, string>;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly baseDelayMs: number;
  private readonly pacer: RequestPacer | undefined;

  constructor(options: ToncenterOptions) {
    this.root = options.baseUrl.replace(/\/+$/, '');
    this.headers = options.apiKey ? { 'X-API-Key': options.apiKey } : {};
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxRetries = options.maxRetries ?? 3;
    this.baseDelayMs = options.retryBaseDelayMs ?? 200;
    this.pacer = options.pacer;
  }

  private async call(
    path: string,
    init: { method: 'GET' | 'POST'; query?: Record<string, string | undefined>; body?: unknown },
    retries = this.maxRetries,
  ): Promise<unknown> {
    const url = new URL(this.root + path);
    for (const [k, v] of Object.entries(init.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
    return httpJson(
      url.toString(),
      { method: init.method, body: init.body },
      {
        provider: PROVIDER,
        headers: this.headers,
        timeoutMs: this.timeoutMs,
        maxRetries: retries,
        baseDelayMs: this.baseDelayMs,
        ...(this.pacer ? { pacer: this.pacer } : {}),
      },
    );
  }

  /** v2 envelope: {ok:true,result} or {ok:false,error,code}. */
  private async v2(
    path: string,
    init: { method: 'GET' | 'POST'; query?: Record<string, string | undefined>; body?: unknown },
    retries?: number,
  ): Promise<unknown> {
    const body = asRecord(await this.call(`/api/v2/${path}`, init, retries), path);
    if (body['ok'] !== true) {
      const code = typeof body['code'] === 'number' ? body['code'] : undefined;
      throw new ChainRequestError(
        `${PROVIDER}: ${path} failed: ${describeError(body['error'] ?? body['result'])}`,
        PROVIDER,
        code,
      );
    }
    return body['result'];
  }

  async getAccountState(address: Address): Promise<AccountState> {
    const r = asRecord(
      await this.v2('getAddressInformation', { method: 'GET', query: { address: address.toRawString() } }),
      'getAddressInformation',
    );
    const balance = bigintOf(r['balance'], 'balance');
    const last =
      r['last_transaction_id'] && typeof r['last_transaction_id'] === 'object'
        ? (r['last_transaction_id'] as Record<string, unknown>)
        : undefined;
    const lastLt = last ? bigintOf(last['lt'] ?? '0', 'last_transaction_id.lt') : 0n;
    const lastTransaction =
      last && lastLt > 0n && typeof last['hash'] === 'string'
        ? { lt: lastLt, hash: hashToHex(last['hash']) }
        : undefined;
    const state = r['state'];
    if (state === 'active') {
      return {
        status: 'active',
        balance,
        codeHash: codeHashOf(r['code']),
        data: optionalCell(r['data']),
        lastTransaction,
      };
    }
    if (state === 'frozen') return { status: 'frozen', balance, lastTransaction };
    if (state === 'uninitialized' || state === 'uninit' || state === 'nonexist') {
      const never = balance === 0n && !lastTransaction;
      return { status: never ? 'nonexist' : 'uninit', balance, lastTransaction };
    }
    throw new ChainResponseError(`getAddressInformation: unknown state ${String(state)}`, PROVIDER);
  }

  async getSeqno(address: Address): Promise<number> {
    const r = asRecord(
      await this.v2('getWalletInformation', { method: 'GET', query: { address: address.toRawString() } }),
      'getWalletInformation',
    );
    if (r['account_state'] !== 'active') return 0;
    if (typeof r['seqno'] === 'number') return r['seqno'];
    const res = await this.runGetMethod(address, 'seqno');
    if (res.exitCode !== 0) throw new ChainResponseError(`seqno get-method exit code ${res.exitCode}`, PROVIDER);
    return res.stack.readNumber();
  }

  async runGetMethod(
    address: Address,
    method: string,
    stack: TupleItem[] = [],
  ): Promise<{ exitCode: number; stack: TupleReader }> {
    const r = asRecord(
      await this.v2('runGetMethod', {
        method: 'POST',
        body: { address: address.toRawString(), method, stack: toToncenterStack(stack) },
      }),
      'runGetMethod',
    );
    const exitCode = Number(r['exit_code']);
    if (!Number.isInteger(exitCode)) throw new ChainResponseError('runGetMethod: no exit_code', PROVIDER);
    return { exitCode, stack: fromToncenterStack(r['stack'] ?? []) };
  }

  getJettonWalletAddress(master: Address, owner: Address): Promise<Address> {
    return queryJettonWalletAddress(this, master, owner, PROVIDER);
  }

  getJettonBalance(jettonWallet: Address): Promise<bigint> {
    return queryJettonBalance(this, jettonWallet, PROVIDER);
  }

  /** POST /api/v2/sendBocReturnHash, once. The returned hash is computed locally (TEP-467). */
  async sendBoc(boc: string): Promise<{ normalizedHash: string }> {
    const normalizedHash = normalizedExternalHash(boc);
    await this.v2('sendBocReturnHash', { method: 'POST', body: { boc } }, 0);
    return { normalizedHash };
  }

  private async transactionsPage(
    address: Address,
    limit: number,
    from?: { lt: bigint; hash: string },
    toLt?: bigint,
  ): Promise<Transaction[]> {
    const result = await this.v2('getTransactions', {
      method: 'GET',
      query: {
        address: address.toRawString(),
        limit: String(limit),
        lt: from?.lt.toString(),
        hash: from?.hash,
        to_lt: toLt !== undefined ? toLt.toString() : undefined,
        archival: 'true',
      },
    });
    if (!Array.isArray(result)) throw new ChainResponseError('getTransactions: result is not an array', PROVIDER);
    return result.map((item) => {
      const data = asRecord(item, 'transaction')['data'];
      if (typeof data !== 'string') throw new ChainResponseError('getTransactions: item without data', PROVIDER);
      return loadTransaction(Cell.fromBase64(data).beginParse());
    });
  }

  async getTransactions(address: Address, opts: { limit?: number; afterLt?: bigint } = {}): Promise<Transaction[]> {
    const limit = Math.min(Math.max(opts.limit ?? 20, 1), 100);
    const txs = await this.transactionsPage(address, limit, undefined, opts.afterLt);
    const after = opts.afterLt;
    return txs
      .filter((tx) => after === undefined || tx.lt > after)
      .sort((a, b) => (a.lt === b.lt ? 0 : a.lt > b.lt ? -1 : 1));
  }

  async walkTransactions(
    address: Address,
    visit: (tx: Transaction) => boolean | Promise<boolean>,
    opts: WalkOptions = {},
  ): Promise<WalkEnd> {
    const { sinceLt } = opts;
    const maxPages = opts.maxPages ?? Number.POSITIVE_INFINITY;
    let from: { lt: bigint; hash: string } | undefined;
    let downToLt: bigint | undefined;
    for (let page = 0; page < maxPages; page += 1) {
      const txs = await this.transactionsPage(address, PAGE, from, sinceLt);
      for (const tx of txs) {
        if (sinceLt !== undefined && tx.lt <= sinceLt) return { end: 'complete' };
        if (await visit(tx)) return { end: 'stopped' };
        downToLt = tx.lt;
      }
      const last = txs[txs.length - 1];
      // An empty page: nothing (more) after sinceLt, or an account without history.
      if (!last) {
        if (from === undefined) return { end: 'complete' };
        return {
          end: 'incomplete',
          reason: 'the provider returned no transactions before the start',
          downToLt: downToLt!,
        };
      }
      const prevLt = last.prevTransactionLt;
      if (prevLt === 0n || (sinceLt !== undefined && prevLt <= sinceLt)) return { end: 'complete' };
      // A short page whose last transaction still links further back: the provider's history ends early.
      if (txs.length < PAGE)
        return { end: 'incomplete', reason: 'the provider history ends before the start', downToLt: last.lt };
      from = { lt: prevLt, hash: last.prevTransactionHash.toString(16).padStart(64, '0') };
    }
    return {
      end: 'incomplete',
      reason: `stopped after ${maxPages} pages of ${PAGE} transactions`,
      downToLt: downToLt ?? sinceLt ?? 0n,
    };
  }

  async findTransactionByNormalizedHash(
    wallet: Address,
    normalizedHash: string,
    opts: { sinceLt?: bigint } = {},
  ): Promise<TransactionScan> {
    const wanted = hashToHex(normalizedHash);
    let found: Transaction | undefined;
    const walk = await this.walkTransactions(
      wallet,
      (tx) => {
        if (tx.inMessage?.info.type !== 'external-in' || normalizedExternalHash(tx.inMessage) !== wanted) return false;
        found = tx;
        return true;
      },
      { sinceLt: opts.sinceLt, maxPages: MAX_SCAN_PAGES },
    );
    if (found) return { outcome: 'found', tx: found };
    if (walk.end === 'incomplete')
      return { outcome: 'inconclusive', reason: walk.reason, scannedDownToLt: walk.downToLt.toString() };
    return { outcome: 'absent' };
  }

  async findTransactionByInMessageHash(account: Address, messageHash: string): Promise<Transaction | null> {
    const body = asRecord(
      await this.call('/api/v3/transactionsByMessage', {
        method: 'GET',
        query: { msg_hash: hashToHex(messageHash), direction: 'in' },
      }),
      'transactionsByMessage',
    );
    const list = body['transactions'];
    if (!Array.isArray(list)) throw new ChainResponseError('transactionsByMessage: no transactions array', PROVIDER);
    for (const item of list) {
      const t = asRecord(item, 'transaction');
      if (typeof t['account'] !== 'string' || !Address.parse(t['account']).equals(account)) continue;
      const lt = bigintOf(t['lt'], 'lt');
      const hash = hashToHex(String(t['hash']));
      const txs = await this.transactionsPage(account, 1, { lt, hash });
      const tx = txs.find((x) => x.lt === lt);
      if (tx) return tx;
    }
    return null;
  }
}

/** toncenter's `error` is a string; anything else is shown as JSON, never as '[object Object]'. */
function describeError(value: unknown): string {
  if (value === undefined || value === null) return 'unknown error';
  return (typeof value === 'string' ? value : JSON.stringify(value)).slice(0, 300);
}
