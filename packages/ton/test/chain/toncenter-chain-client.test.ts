import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { mnemonicNew } from '@ton/crypto';
import { Address, beginCell, Cell, loadMessage, storeMessage, toNano, type Transaction } from '@ton/core';
import type { Blockchain } from '@ton/sandbox';
import {
  buildSignedExternal,
  ChainRequestError,
  ChainUnavailableError,
  createWalletContract,
  deriveKeyPair,
  judgeWalletTransaction,
  resolveWallet,
  ToncenterChainClient,
} from '../../src';
import { fund, quietBlockchain } from '../helpers/sandbox';

/**
 * A tiny server answering toncenter-shaped JSON from a real @ton/sandbox chain, for the handful of
 * endpoints the client uses. Shapes follow toncenter v2/v3 (ok/result envelope, raw.* objects,
 * base64 hashes, transaction `data` BOC). Not a conformance test: that runs later against the
 * sandbox app's toncenter server.
 */
function toncenterLike(blockchain: Blockchain, faults: { status: number[] }) {
  const seen: Transaction[] = [];
  const requests: Array<{ path: string; apiKey?: string }> = [];
  const b64 = (h: Buffer) => h.toString('base64');
  const ok = (res: ServerResponse, result: unknown) => json(res, 200, { ok: true, result });
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)));
  };
  function txsOf(address: Address) {
    return seen
      .filter((t) => t.address === BigInt(`0x${address.hash.toString('hex')}`))
      .sort((a, b) => (a.lt > b.lt ? -1 : 1));
  }
  async function handle(req: IncomingMessage, res: ServerResponse, body: string) {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push({ path: url.pathname, apiKey: req.headers['x-api-key'] as string | undefined });
    const fault = faults.status.shift();
    if (fault) return json(res, fault, { ok: false, result: 'Ratelimit exceed', code: fault });
    const q = url.searchParams;
    switch (url.pathname) {
      case '/api/v2/getAddressInformation': {
        const c = await blockchain.getContract(Address.parse(q.get('address')!));
        const st = c.accountState;
        const last =
          c.lastTransactionLt > 0n
            ? {
                '@type': 'internal.transactionId',
                lt: c.lastTransactionLt.toString(),
                hash: b64(Buffer.from(c.lastTransactionHash.toString(16).padStart(64, '0'), 'hex')),
              }
            : { '@type': 'internal.transactionId', lt: '0', hash: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=' };
        return ok(res, {
          '@type': 'raw.fullAccountState',
          balance: c.balance.toString(),
          code: st?.type === 'active' && st.state.code ? st.state.code.toBoc().toString('base64') : '',
          data: st?.type === 'active' && st.state.data ? st.state.data.toBoc().toString('base64') : '',
          last_transaction_id: last,
          frozen_hash: '',
          sync_utime: Math.floor(Date.now() / 1000),
          state: st?.type === 'active' ? 'active' : st?.type === 'frozen' ? 'frozen' : 'uninitialized',
        });
      }
      case '/api/v2/getWalletInformation': {
        const address = Address.parse(q.get('address')!);
        const c = await blockchain.getContract(address);
        const active = c.accountState?.type === 'active';
        const result: Record<string, unknown> = {
          wallet: active,
          balance: c.balance.toString(),
          account_state: active ? 'active' : 'uninitialized',
        };
        if (active) {
          result['wallet_type'] = 'wallet v5 r1';
          result['seqno'] = (await blockchain.runGetMethod(address, 'seqno')).stackReader.readNumber();
        }
        return ok(res, result);
      }
      case '/api/v2/runGetMethod': {
        const { address, method, stack } = JSON.parse(body) as {
          address: string;
          method: string;
          stack: Array<[string, string]>;
        };
        const args = stack.map(([kind, value]) =>
          kind === 'num'
            ? { type: 'int' as const, value: BigInt(value) }
            : { type: 'slice' as const, cell: Cell.fromBase64(value) },
        );
        const r = await blockchain.runGetMethod(Address.parse(address), method, args);
        return ok(res, {
          '@type': 'smc.runResult',
          gas_used: Number(r.gasUsed),
          exit_code: r.exitCode,
          stack: r.stack.map((item) =>
            item.type === 'int'
              ? ['num', `0x${item.value.toString(16)}`]
              : item.type === 'slice' || item.type === 'cell'
                ? [item.type, { bytes: item.cell.toBoc().toString('base64'), object: {} }]
                : ['null'],
          ),
        });
      }
      case '/api/v2/sendBocReturnHash': {
        const { boc } = JSON.parse(body) as { boc: string };
        try {
          const r = await blockchain.sendMessage(loadMessage(Cell.fromBase64(boc).beginParse()));
          seen.push(...r.transactions);
        } catch {
          return json(res, 500, {
            ok: false,
            error: 'LITE_SERVER_UNKNOWN: cannot apply external message to current state',
            code: 500,
          });
        }
        return ok(res, {
          '@type': 'raw.extMessageInfo',
          hash: b64(Cell.fromBase64(boc).hash()),
          hash_norm: 'ignored-by-client',
        });
      }
      case '/api/v2/getTransactions': {
        let txs = txsOf(Address.parse(q.get('address')!));
        if (q.get('lt')) txs = txs.filter((t) => t.lt <= BigInt(q.get('lt')!));
        if (q.get('to_lt')) txs = txs.filter((t) => t.lt > BigInt(q.get('to_lt')!));
        txs = txs.slice(0, Number(q.get('limit') ?? 10));
        return ok(
          res,
          txs.map((t) => ({
            '@type': 'raw.transaction',
            utime: t.now,
            data: t.raw.toBoc().toString('base64'),
            transaction_id: { '@type': 'internal.transactionId', lt: t.lt.toString(), hash: b64(t.hash()) },
            fee: '0',
            in_msg: {},
            out_msgs: [],
          })),
        );
      }
      case '/api/v3/transactionsByMessage': {
        const hash = q.get('msg_hash')!;
        const match = seen.filter((t) => t.inMessage && msgHash(t) === hash);
        return json(res, 200, {
          transactions: match.map((t) => ({
            account: `0:${t.address.toString(16).padStart(64, '0').toUpperCase()}`,
            hash: b64(t.hash()),
            lt: t.lt.toString(),
            now: t.now,
          })),
          address_book: {},
        });
      }
      default:
        return json(res, 404, { ok: false, error: 'not found', code: 404 });
    }
  }
  const msgHash = (t: Transaction) => beginCell().store(storeMessage(t.inMessage!)).endCell().hash().toString('hex');
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => void handle(req, res, body).catch((e) => json(res, 500, { ok: false, error: String(e) })));
  });
  return { server, seen, requests };
}

describe('ToncenterChainClient', () => {
  let blockchain: Blockchain;
  let server: Server;
  let faults: { status: number[] };
  let state: ReturnType<typeof toncenterLike>;
  let client: ToncenterChainClient;

  beforeAll(async () => {
    blockchain = await quietBlockchain();
    faults = { status: [] };
    state = toncenterLike(blockchain, faults);
    server = state.server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    client = new ToncenterChainClient({
      baseUrl: `http://127.0.0.1:${port}/`,
      apiKey: 'test-key',
      maxRetries: 2,
      retryBaseDelayMs: 5,
      timeoutMs: 5000,
    });
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reads state, seqno, sends, lists and finds transactions through toncenter shapes', async () => {
    const key = await deriveKeyPair(randomBytes(32).toString('base64'), 'base64_key');
    const wallet = createWalletContract('V5R1', key.publicKey, 'mainnet');
    expect(await client.getAccountState(wallet.address)).toEqual({ status: 'nonexist', balance: 0n });
    expect(await client.getSeqno(wallet.address)).toBe(0);

    await fund(blockchain, wallet.address, toNano('3'));
    const uninit = await client.getAccountState(wallet.address);
    expect(uninit.status).toBe('uninit');
    expect(uninit.balance).toBe(toNano('3'));

    const to = new Address(0, randomBytes(32));
    const signed = await buildSignedExternal({
      wallet,
      secretKey: key.secretKey,
      seqno: 0,
      validUntil: Math.floor(Date.now() / 1000) + 60,
      messages: [{ to, value: toNano('1'), bounce: false }],
    });
    expect(await client.sendBoc(signed.boc)).toEqual({ normalizedHash: signed.normalizedHash });

    const active = await client.getAccountState(wallet.address);
    expect(active.status).toBe('active');
    expect(active.codeHash).toBe(wallet.init.code.hash().toString('hex'));
    expect(active.data?.hash().equals(wallet.init.data.hash())).toBe(false); // seqno moved on
    expect(active.lastTransaction?.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(await client.getSeqno(wallet.address)).toBe(1);
    const seqnoByGetMethod = await client.runGetMethod(wallet.address, 'seqno');
    expect(seqnoByGetMethod.exitCode).toBe(0);
    expect(seqnoByGetMethod.stack.readNumber()).toBe(1);

    const second = await buildSignedExternal({
      wallet,
      secretKey: key.secretKey,
      seqno: 1,
      validUntil: Math.floor(Date.now() / 1000) + 60,
      messages: [{ to, value: toNano('0.5'), bounce: false }],
    });
    await client.sendBoc(second.boc);

    const txs = await client.getTransactions(wallet.address, { limit: 10 });
    expect(txs.length).toBe(2);
    expect(txs[0]!.lt > txs[1]!.lt).toBe(true);
    const scan = await client.findTransactionByNormalizedHash(wallet.address, signed.normalizedHash);
    expect(scan.outcome).toBe('found');
    const found = scan.outcome === 'found' ? scan.tx : null;
    expect(judgeWalletTransaction(found!, 1)).toEqual({ ok: true });
    // Read down to sinceLt (the wallet's own history): absent, not merely not found.
    expect(
      await client.findTransactionByNormalizedHash(wallet.address, signed.normalizedHash, { sinceLt: found!.lt }),
    ).toEqual({ outcome: 'absent' });
    expect((await client.getTransactions(wallet.address, { afterLt: found!.lt })).length).toBe(1);

    // Follow the outgoing message to the recipient via v3 transactionsByMessage.
    const out = found!.outMessages.get(0)!;
    const outHash = beginCell().store(storeMessage(out)).endCell().hash().toString('hex');
    const recipientTx = await client.findTransactionByInMessageHash(to, outHash);
    expect(recipientTx?.inMessage?.info.type).toBe('internal');
    expect(await client.findTransactionByInMessageHash(wallet.address, outHash)).toBeNull();

    expect(state.requests.every((r) => r.apiKey === 'test-key')).toBe(true);
  });

  it('resolveWallet picks the deployed version of a 24-word seed and reports balances or CHAIN_UNAVAILABLE', async () => {
    const words = (await mnemonicNew(24)).join(' ');
    const key = await deriveKeyPair(words, 'ton_24');
    const v4 = createWalletContract('V4R2', key.publicKey, 'mainnet');
    const noUsdt = new Address(0, randomBytes(32)); // no USDT master on this chain ⇒ balances cannot be read
    const before = await resolveWallet({ seed: words }, { network: 'mainnet', chain: client, usdtMaster: noUsdt });
    expect(before).toMatchObject({
      wallet_version: 'V5R1',
      version_source: 'default',
      account_index: 0,
      seed_format: 'ton_24',
      balances_error: 'CHAIN_UNAVAILABLE',
    });

    await fund(blockchain, v4.address, toNano('1.5'));
    const deploy = await buildSignedExternal({
      wallet: v4,
      secretKey: key.secretKey,
      seqno: 0,
      validUntil: Math.floor(Date.now() / 1000) + 60,
      messages: [{ to: v4.address, value: 1n, bounce: false }],
    });
    await client.sendBoc(deploy.boc);
    const after = await resolveWallet({ seed: words }, { network: 'mainnet', chain: client, usdtMaster: noUsdt });
    expect(after).toMatchObject({
      wallet_version: 'V4R2',
      version_source: 'deployed',
      raw_address: v4.address.toRawString(),
    });
    expect(after.wallet_address).toBe(v4.address.toString({ bounceable: false, urlSafe: true }));

    faults.status.push(503, 503, 503, 503, 503, 503, 503, 503, 503);
    const down = await resolveWallet({ seed: words }, { network: 'mainnet', chain: client, usdtMaster: noUsdt });
    expect(down).toMatchObject({
      wallet_version: 'V5R1',
      version_source: 'default_chain_unavailable',
      balances_error: 'CHAIN_UNAVAILABLE',
    });
    expect(down.balances).toBeUndefined();
    faults.status.length = 0;
  });

  it('retries reads on 429/5xx, surfaces typed errors, never retries sendBoc', async () => {
    const address = new Address(0, randomBytes(32));
    faults.status.push(429, 502);
    expect((await client.getAccountState(address)).status).toBe('nonexist');
    faults.status.push(503, 503, 503);
    await expect(client.getAccountState(address)).rejects.toBeInstanceOf(ChainUnavailableError);
    faults.status.push(400);
    await expect(client.getSeqno(address)).rejects.toBeInstanceOf(ChainRequestError);
    const key = await deriveKeyPair(randomBytes(32).toString('base64'), 'base64_key');
    const wallet = createWalletContract('V5R1', key.publicKey, 'mainnet');
    const boc = (
      await buildSignedExternal({
        wallet,
        secretKey: key.secretKey,
        seqno: 0,
        validUntil: Math.floor(Date.now() / 1000) + 60,
        messages: [{ to: address, value: 1n, bounce: false }],
      })
    ).boc;
    faults.status.push(503, 503);
    const before = state.requests.length;
    await expect(client.sendBoc(boc)).rejects.toBeInstanceOf(ChainUnavailableError);
    expect(state.requests.length - before).toBe(1);
    faults.status.length = 0;
  });
});
