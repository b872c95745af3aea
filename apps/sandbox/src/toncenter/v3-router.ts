import type { Address } from '@ton/core';
import express, { type Request, type Response, type NextFunction } from 'express';
import type { AccountSnapshot, LocalChain } from '../chain/local-chain';
import type { IndexedTransaction } from '../chain/transaction-index';
import {
  b64,
  listParam,
  scalarParam,
  optionalBigint,
  optionalInt,
  parseAddress,
  parseHash,
  type Params,
} from './params';
import { formatV3Stack, parseV3Stack } from './stack-codec';
import { badRequest, toncenterErrorHandler, ToncenterError } from './toncenter-errors';
import { addressBook, decodeTransaction, rawUpper, transactionAddresses, v3Transaction } from './tx-format';
import { detectWallet, V3_WALLET_TYPE } from './wallet-detect';

const MAX_ADDRESSES = 1000;

/** Wallets (and not-yet-deployed accounts) print non-bounceable in the address book, as toncenter does. */
const walletLike = (acc: AccountSnapshot): boolean =>
  acc.status !== 'active' || detectWallet(acc.code, acc.data) !== null;

/** toncenter v3 (ton-indexer) subset over the local chain. */
export function createV3Router(chain: LocalChain): express.Router {
  const router = express.Router();
  router.use(express.json({ limit: '1mb' }));
  const wrap = (fn: (req: Request) => Promise<unknown>) => async (req: Request, res: Response, next: NextFunction) => {
    try {
      res.json(await fn(req));
    } catch (err) {
      next(err);
    }
  };
  const addressesOf = (q: Params, name: string): Address[] => {
    const list = listParam(q[name]);
    if (list.length === 0) throw badRequest(`${name} is required`);
    if (list.length > MAX_ADDRESSES) throw badRequest(`at most ${MAX_ADDRESSES} addresses`);
    return list.map((a) => parseAddress(a, name));
  };
  const txResponse = async (entries: IndexedTransaction[]) => {
    const decoded = entries.map(decodeTransaction);
    const addrs = decoded.flatMap(transactionAddresses);
    const kinds = new Map<string, boolean>();
    for (const a of addrs)
      if (!kinds.has(a.toRawString())) kinds.set(a.toRawString(), walletLike(await chain.getAccount(a)));
    return {
      transactions: decoded.map(v3Transaction),
      address_book: addressBook(addrs, (a) => kinds.get(a.toRawString()) ?? false),
    };
  };

  router.get(
    '/walletStates',
    wrap(async (req) => {
      const addresses = addressesOf(req.query, 'address');
      const accounts = await Promise.all(addresses.map((a) => chain.getAccount(a)));
      return {
        wallets: accounts.map((acc) => {
          const w = detectWallet(acc.code, acc.data);
          return {
            address: rawUpper(acc.address),
            is_wallet: w !== null,
            ...(w
              ? {
                  wallet_type: V3_WALLET_TYPE[w.kind],
                  seqno: w.seqno,
                  wallet_id: w.walletId,
                  is_signature_allowed: w.isSignatureAllowed,
                }
              : {}),
            balance: acc.balance.toString(),
            status: acc.status,
            ...(acc.code ? { code_hash: b64(acc.code.hash()) } : {}),
            last_transaction_hash: acc.lastTransaction ? b64(acc.lastTransaction.hash) : null,
            last_transaction_lt: acc.lastTransaction ? acc.lastTransaction.lt.toString() : null,
          };
        }),
        address_book: addressBook(addresses, (a) => walletLike(accounts.find((x) => x.address.equals(a))!)),
      };
    }),
  );

  router.get(
    '/accountStates',
    wrap(async (req) => {
      const q = req.query as Params;
      const addresses = addressesOf(q, 'address');
      const includeBoc = q['include_boc'] === undefined || scalarParam(q['include_boc'], 'include_boc') !== 'false';
      const accounts = await Promise.all(addresses.map((a) => chain.getAccount(a)));
      return {
        accounts: accounts.map((acc) => ({
          address: rawUpper(acc.address),
          account_state_hash: null,
          balance: acc.balance.toString(),
          extra_currencies: {},
          status: acc.status,
          ...(acc.frozenHash ? { frozen_hash: b64(acc.frozenHash) } : {}),
          last_transaction_hash: acc.lastTransaction ? b64(acc.lastTransaction.hash) : null,
          last_transaction_lt: acc.lastTransaction ? acc.lastTransaction.lt.toString() : null,
          ...(acc.data ? { data_hash: b64(acc.data.hash()) } : {}),
          ...(acc.code ? { code_hash: b64(acc.code.hash()) } : {}),
          ...(includeBoc && acc.data ? { data_boc: acc.data.toBoc().toString('base64') } : {}),
          ...(includeBoc && acc.code ? { code_boc: acc.code.toBoc().toString('base64') } : {}),
        })),
        address_book: addressBook(addresses, (a) => walletLike(accounts.find((x) => x.address.equals(a))!)),
      };
    }),
  );

  router.get(
    '/transactions',
    wrap(async (req) => {
      const q = req.query as Params;
      const limit = optionalInt(q['limit'], 'limit', { min: 1, max: 1000 }) ?? 10;
      const offset = optionalInt(q['offset'], 'offset') ?? 0;
      const sort = q['sort'] === 'asc' ? 'asc' : 'desc';
      if (q['hash'] !== undefined) {
        const e = chain.transactionIndex.byTransactionHash(parseHash(q['hash']));
        return txResponse(e ? [e] : []);
      }
      if (q['msg_hash'] !== undefined) {
        const h = parseHash(q['msg_hash'], 'msg_hash');
        const found = [chain.transactionIndex.byInboundMessage(h), chain.transactionIndex.byOutboundMessage(h)].filter(
          (e): e is IndexedTransaction => !!e,
        );
        return txResponse([...new Set(found)]);
      }
      const accounts = listParam(q['account']);
      if (accounts.length !== 1) throw badRequest('account is required (exactly one)');
      const account = parseAddress(accounts[0], 'account');
      const startLt = optionalBigint(q['start_lt'], 'start_lt');
      const endLt = optionalBigint(q['end_lt'], 'end_lt');
      const entries = chain.listTransactions(account, {
        limit,
        offset,
        sort,
        ...(startLt !== undefined ? { startLt } : {}),
        ...(endLt !== undefined ? { endLt } : {}),
      });
      return txResponse(entries);
    }),
  );

  router.get(
    '/transactionsByMessage',
    wrap(async (req) => {
      const q = req.query as Params;
      const hash = parseHash(q['msg_hash'], 'msg_hash');
      const direction = scalarParam(q['direction'], 'direction');
      if (direction !== undefined && direction !== 'in' && direction !== 'out')
        throw badRequest('direction must be in or out');
      const found: IndexedTransaction[] = [];
      if (direction !== 'out') {
        const e = chain.transactionIndex.byInboundMessage(hash);
        if (e) found.push(e);
      }
      if (direction !== 'in') {
        const e = chain.transactionIndex.byOutboundMessage(hash);
        if (e && !found.includes(e)) found.push(e);
      }
      return txResponse(found);
    }),
  );

  router.get(
    '/jetton/wallets',
    wrap(async (req) => {
      const q = req.query as Params;
      const jettons = listParam(q['jetton_address']).map((a) => parseAddress(a, 'jetton_address'));
      const owners = listParam(q['owner_address']).map((a) => parseAddress(a, 'owner_address'));
      const direct = listParam(q['address']).map((a) => parseAddress(a, 'address'));
      if (owners.length === 0 && direct.length === 0) throw badRequest('owner_address or address is required');
      const masters = jettons.length > 0 ? jettons : [chain.usdtMaster];
      const candidates: Address[] = [...direct];
      for (const owner of owners)
        for (const master of masters) candidates.push(await chain.getJettonWalletAddress(owner, master));
      const wallets = [];
      const seen = new Set<string>();
      for (const jw of candidates) {
        if (seen.has(jw.toRawString())) continue;
        seen.add(jw.toRawString());
        const data = await chain.getJettonWalletData(jw);
        if (!data) continue;
        if (jettons.length > 0 && !jettons.some((j) => j.equals(data.master))) continue;
        const acc = await chain.getAccount(jw);
        wallets.push({
          address: rawUpper(jw),
          balance: data.balance.toString(),
          owner: rawUpper(data.owner),
          jetton: rawUpper(data.master),
          last_transaction_lt: acc.lastTransaction ? acc.lastTransaction.lt.toString() : '0',
          code_hash: acc.code ? b64(acc.code.hash()) : null,
          data_hash: acc.data ? b64(acc.data.hash()) : null,
        });
      }
      const limit = optionalInt(q['limit'], 'limit', { min: 1, max: 1000 }) ?? 10;
      const offset = optionalInt(q['offset'], 'offset') ?? 0;
      const page = wallets.slice(offset, offset + limit);
      const book = page.flatMap((w) => [parseAddress(w.address), parseAddress(w.owner), parseAddress(w.jetton)]);
      return {
        jetton_wallets: page,
        address_book: addressBook(book, (a) => page.some((w) => w.owner === rawUpper(a))),
        metadata: {},
      };
    }),
  );

  router.post(
    '/message',
    wrap(async (req) => {
      const boc = (req.body as Params | undefined)?.['boc'];
      if (typeof boc !== 'string' || boc === '') throw badRequest('boc is required');
      const { hash, hashNorm } = await chain.submitExternal(boc);
      return { message_hash: hash, message_hash_norm: hashNorm };
    }),
  );

  router.post(
    '/runGetMethod',
    wrap(async (req) => {
      const body = (req.body ?? {}) as Params;
      const address = parseAddress(body['address']);
      const m = body['method'];
      const method = typeof m === 'number' ? m : scalarParam(m, 'method');
      if (method === undefined || method === '') throw badRequest('method is required');
      const res = await chain.runGetMethod(address, method, parseV3Stack(body['stack']));
      return { gas_used: Number(res.gasUsed), exit_code: res.exitCode, stack: formatV3Stack(res.stack) };
    }),
  );

  router.use((_req, _res, next) => next(new ToncenterError(404, 'Not Found')));
  router.use(toncenterErrorHandler('v3'));
  return router;
}
