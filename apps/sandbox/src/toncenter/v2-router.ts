import { createHash } from 'node:crypto';
import { Dictionary, type Cell } from '@ton/core';
import express, { type Request, type Response, type NextFunction } from 'express';
import type { AccountSnapshot, LocalChain } from '../chain/local-chain';
import {
  b64,
  optionalBigint,
  scalarParam,
  optionalInt,
  parseAddress,
  parseBocCell,
  parseHash,
  type Params,
} from './params';
import { formatV2Stack, parseV2Stack } from './stack-codec';
import { badRequest, toncenterErrorHandler, toToncenterError, ToncenterError } from './toncenter-errors';
import { decodeTransaction, v2Transaction } from './tx-format';
import { detectWallet, V2_WALLET_TYPE } from './wallet-detect';

type Handler = (params: Params) => unknown;

const ZERO_HASH = Buffer.alloc(32).toString('base64');
const v2State = (s: AccountSnapshot['status']): string =>
  s === 'active' ? 'active' : s === 'frozen' ? 'frozen' : 'uninitialized';

/** toncenter v2 (ton-http-api) subset over the local chain. */
export function createV2Handlers(chain: LocalChain): Record<string, Handler> {
  const blockId = () => {
    const seqno = chain.lastBlockSeqno;
    const h = createHash('sha256').update(`sandbox-mc-${seqno}`).digest('base64');
    return {
      '@type': 'ton.blockIdExt',
      workchain: -1,
      shard: '-9223372036854775808',
      seqno,
      root_hash: h,
      file_hash: h,
    };
  };
  const lastTxId = (acc: AccountSnapshot) => ({
    '@type': 'internal.transactionId',
    lt: acc.lastTransaction ? acc.lastTransaction.lt.toString() : '0',
    hash: acc.lastTransaction ? b64(acc.lastTransaction.hash) : ZERO_HASH,
  });
  const bocOrEmpty = (c: Cell | null) => (c ? c.toBoc().toString('base64') : '');

  const handlers: Record<string, Handler> = {
    async getAddressInformation(p) {
      const acc = await chain.getAccount(parseAddress(p['address']));
      return {
        '@type': 'raw.fullAccountState',
        balance: acc.balance.toString(),
        extra_currencies: [],
        code: bocOrEmpty(acc.code),
        data: bocOrEmpty(acc.data),
        last_transaction_id: lastTxId(acc),
        block_id: blockId(),
        frozen_hash: acc.frozenHash ? b64(acc.frozenHash) : '',
        sync_utime: chain.now(),
        state: v2State(acc.status),
      };
    },
    getExtendedAddressInformation(p) {
      return handlers['getAddressInformation']!(p);
    },
    async getAddressState(p) {
      return v2State((await chain.getAccount(parseAddress(p['address']))).status);
    },
    async getAddressBalance(p) {
      return (await chain.getBalance(parseAddress(p['address']))).toString();
    },
    async getWalletInformation(p) {
      const acc = await chain.getAccount(parseAddress(p['address']));
      const wallet = detectWallet(acc.code, acc.data);
      const base = {
        '@type': 'ext.accounts.walletInformation',
        wallet: wallet !== null,
        balance: acc.balance.toString(),
        account_state: v2State(acc.status),
        last_transaction_id: lastTxId(acc),
      };
      if (!wallet) return base;
      return {
        ...base,
        wallet_type: V2_WALLET_TYPE[wallet.kind],
        seqno: wallet.seqno,
        wallet_id: wallet.walletId,
        ...(wallet.kind === 'v5r1' ? { is_signature_allowed: wallet.isSignatureAllowed } : {}),
      };
    },
    async runGetMethod(p) {
      const address = parseAddress(p['address']);
      const m = scalarParam(p['method'], 'method');
      if (m === undefined || m === '') throw badRequest('method is required');
      const method = /^-?\d+$/.test(m) ? Number(m) : m;
      const res = await chain.runGetMethod(address, method, parseV2Stack(p['stack']));
      const acc = await chain.getAccount(address);
      return {
        '@type': 'smc.runResult',
        gas_used: Number(res.gasUsed),
        stack: formatV2Stack(res.stack),
        exit_code: res.exitCode,
        block_id: blockId(),
        last_transaction_id: lastTxId(acc),
      };
    },
    async sendBoc(p) {
      await chain.submitExternal(requireBoc(p));
      return { '@type': 'ok' };
    },
    async sendBocReturnHash(p) {
      const { hash, hashNorm } = await chain.submitExternal(requireBoc(p));
      return { '@type': 'ext_message_info', hash, hash_norm: hashNorm };
    },
    getTransactions(p) {
      const address = parseAddress(p['address']);
      const limit = optionalInt(p['limit'], 'limit', { min: 1, max: 256 }) ?? 10;
      const lt = optionalBigint(p['lt'], 'lt');
      const hash = p['hash'] !== undefined && p['hash'] !== '' ? parseHash(p['hash']) : undefined;
      const toLt = optionalBigint(p['to_lt'], 'to_lt');
      const entries = chain.listTransactions(address, {
        limit,
        ...(lt !== undefined ? { lt } : {}),
        ...(hash ? { hash } : {}),
        ...(toLt !== undefined && toLt > 0n ? { toLt } : {}),
      });
      return entries.map((e) => v2Transaction(decodeTransaction(e), address));
    },
    async estimateFee(p) {
      const address = parseAddress(p['address']);
      const body = parseBocCell(p['body'], 'body');
      const code = p['init_code'] ? parseBocCell(p['init_code'], 'init_code') : null;
      const data = p['init_data'] ? parseBocCell(p['init_data'], 'init_data') : null;
      const ignore = p['ignore_chksig'];
      const fees = await chain.estimateFee(address, {
        body,
        init: code && data ? { code, data } : null,
        ignoreChksig: ignore === undefined ? true : ignore === true || ignore === 'true',
      });
      return {
        '@type': 'query.fees',
        source_fees: {
          '@type': 'fees',
          in_fwd_fee: Number(fees.inFwdFee),
          storage_fee: Number(fees.storageFee),
          gas_fee: Number(fees.gasFee),
          fwd_fee: Number(fees.fwdFee),
        },
        destination_fees: [],
      };
    },
    getConfigParam(p) {
      const id = optionalInt(p['config_id'], 'config_id');
      if (id === undefined) throw badRequest('config_id is required');
      const params = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), chain.configCell);
      const param = params.get(id);
      if (!param) throw badRequest(`config param ${id} not found`);
      return Promise.resolve({
        '@type': 'configInfo',
        config: { '@type': 'tvm.cell', bytes: param.toBoc().toString('base64') },
      });
    },
    getMasterchainInfo() {
      const last = blockId();
      return { '@type': 'blocks.masterchainInfo', last, state_root_hash: last.root_hash, init: { ...last, seqno: 0 } };
    },
  };
  return handlers;
}

function requireBoc(p: Params): string {
  const boc = p['boc'];
  if (typeof boc !== 'string' || boc === '') throw badRequest('boc is required');
  return boc;
}

export function createV2Router(chain: LocalChain): express.Router {
  const handlers = createV2Handlers(chain);
  const router = express.Router();
  router.use(express.json({ limit: '1mb' }));

  router.post('/jsonRPC', async (req: Request, res: Response) => {
    const body = (req.body ?? {}) as { id?: unknown; jsonrpc?: unknown; method?: unknown; params?: unknown };
    const id = body.id ?? null;
    const jsonrpc = '2.0';
    const handler =
      typeof body.method === 'string' && Object.hasOwn(handlers, body.method) ? handlers[body.method] : undefined;
    if (!handler) {
      res.status(422).json({ ok: false, error: `unknown method ${String(body.method)}`, code: 422, jsonrpc, id });
      return;
    }
    try {
      const result = await handler((body.params ?? {}) as Params);
      res.json({ ok: true, result, jsonrpc, id });
    } catch (err) {
      const e = toToncenterError(err);
      res.status(e.status).json({ ok: false, error: e.message, code: e.status, jsonrpc, id });
    }
  });

  for (const [name, handler] of Object.entries(handlers)) {
    const run = async (params: Params, res: Response, next: NextFunction) => {
      try {
        res.json({ ok: true, result: await handler(params) });
      } catch (err) {
        next(err);
      }
    };
    router.get(`/${name}`, (req, res, next) => run(req.query as Params, res, next));
    router.post(`/${name}`, (req, res, next) =>
      run({ ...(req.query as Params), ...((req.body ?? {}) as Params) }, res, next),
    );
  }
  router.use((_req, _res, next) => next(new ToncenterError(404, 'Not Found')));
  router.use(toncenterErrorHandler('v2'));
  return router;
}
