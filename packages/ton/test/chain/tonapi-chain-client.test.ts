import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { Address, toNano } from '@ton/core';
import {
  buildSignedExternal,
  ChainRequestError,
  createWalletContract,
  deriveKeyPair,
  TonapiChainClient,
} from '../../src';
import { fund, quietBlockchain, sendBoc } from '../helpers/sandbox';

/**
 * Request building and parsing only: a tiny server answering with tonapi v2 shapes (hex BOCs,
 * JSON-number balances, TvmStackRecord stacks), its data taken from a real @ton/sandbox run.
 */
describe('TonapiChainClient (shapes only)', () => {
  it('parses account, seqno, get-method, transactions and sends a message', async () => {
    const blockchain = await quietBlockchain();
    const key = await deriveKeyPair(randomBytes(32).toString('base64'), 'base64_key');
    const wallet = createWalletContract('V4R2', key.publicKey, 'mainnet');
    await fund(blockchain, wallet.address, toNano('2'));
    const signed = await buildSignedExternal({
      wallet,
      secretKey: key.secretKey,
      seqno: 0,
      validUntil: Math.floor(Date.now() / 1000) + 60,
      messages: [{ to: new Address(0, randomBytes(32)), value: toNano('0.1'), bounce: false }],
    });
    const { tx } = await sendBoc(blockchain, signed.boc, wallet.address);
    const contract = await blockchain.getContract(wallet.address);
    const st = contract.accountState;
    if (st?.type !== 'active') throw new Error('wallet not active');

    const raw = wallet.address.toRawString();
    const seen: Array<{ method?: string; url: string; auth?: string; body?: string }> = [];
    const server: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url ?? '', auth: req.headers.authorization, body });
        const url = new URL(req.url ?? '/', 'http://x');
        const send = (status: number, payload?: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(payload === undefined ? '' : JSON.stringify(payload));
        };
        if (url.pathname === `/v2/blockchain/accounts/${raw}`) {
          return send(200, {
            address: raw.toUpperCase(),
            balance: Number(contract.balance),
            last_transaction_lt: Number(contract.lastTransactionLt),
            status: 'active',
            code: st.state.code!.toBoc().toString('hex'),
            data: st.state.data!.toBoc().toString('hex'),
            storage: {},
            get_methods: ['seqno'],
          });
        }
        if (
          url.pathname.startsWith('/v2/blockchain/accounts/') &&
          !url.pathname.includes('/methods/') &&
          !url.pathname.endsWith('/transactions')
        )
          return send(404, { error: 'entity not found' });
        if (url.pathname === `/v2/wallet/${raw}/seqno`) return send(200, { seqno: 1 });
        if (url.pathname === `/v2/blockchain/accounts/${raw}/methods/get_public_key`) {
          return send(200, {
            success: true,
            exit_code: 0,
            stack: [{ type: 'num', num: `0x${key.publicKey.toString('hex')}` }],
          });
        }
        if (url.pathname === `/v2/blockchain/accounts/${raw}/transactions`) {
          return send(200, {
            transactions: [
              {
                hash: tx.hash().toString('hex'),
                lt: Number(tx.lt),
                raw: tx.raw.toBoc().toString('hex'),
                success: true,
                aborted: false,
              },
            ],
          });
        }
        if (url.pathname === '/v2/blockchain/message' && req.method === 'POST') return send(200);
        return send(404, { error: 'not found' });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const client = new TonapiChainClient({
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        apiKey: 'k',
        maxRetries: 0,
      });
      const state = await client.getAccountState(wallet.address);
      expect(state).toMatchObject({
        status: 'active',
        balance: contract.balance,
        codeHash: wallet.init.code.hash().toString('hex'),
      });
      expect(await client.getSeqno(wallet.address)).toBe(1);
      expect(await client.getAccountState(new Address(0, randomBytes(32)))).toEqual({
        status: 'nonexist',
        balance: 0n,
      });
      const pk = await client.runGetMethod(wallet.address, 'get_public_key');
      expect(pk.stack.readBigNumber()).toBe(BigInt(`0x${key.publicKey.toString('hex')}`));
      const txs = await client.getTransactions(wallet.address, { limit: 5 });
      expect(txs[0]?.hash().equals(tx.hash())).toBe(true);
      expect((await client.findTransactionByNormalizedHash(wallet.address, signed.normalizedHash))?.lt).toBe(tx.lt);
      expect(await client.sendBoc(signed.boc)).toEqual({ normalizedHash: signed.normalizedHash });
      expect(JSON.parse(seen.at(-1)!.body!)).toEqual({ boc: signed.boc });
      expect(seen.every((r) => r.auth === 'Bearer k')).toBe(true);
      expect(seen.some((r) => r.url.includes('limit=5'))).toBe(true);
      await expect(client.runGetMethod(wallet.address, 'no_such_method')).rejects.toBeInstanceOf(ChainRequestError);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
