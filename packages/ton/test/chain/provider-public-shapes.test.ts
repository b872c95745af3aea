/**
 * The chain clients against answers shaped as the providers publish them (fixtures/public/README.md
 * names each document), not as our sandbox serves them: toncenter v2's account state of a fresh
 * address and its rate-limit answer, toncenter v3's transactionsByMessage (`lt` a string, `hash`
 * Base64, raw `account`).
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Address, beginCell, storeMessage, toNano, type Transaction } from '@ton/core';
import {
  buildSignedExternal,
  ChainUnavailableError,
  createWalletContract,
  deriveKeyPair,
  ToncenterChainClient,
} from '../../src';
import { fund, quietBlockchain, sendBoc } from '../helpers/sandbox';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(path.join(__dirname, '..', 'fixtures', 'public', name), 'utf8'));

type Route = (url: URL) => { status: number; body: unknown } | undefined;

async function serve(route: Route, run: (baseUrl: string) => Promise<void>): Promise<void> {
  const server: Server = createServer((req, res) => {
    const answer = route(new URL(req.url ?? '/', 'http://x')) ?? { status: 404, body: { error: 'not found' } };
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** A real wallet transaction (deploy + one transfer) and the internal message it sent. */
async function realTransaction(): Promise<{ wallet: Address; tx: Transaction; received: Transaction }> {
  const blockchain = await quietBlockchain();
  const key = await deriveKeyPair(randomBytes(32).toString('base64'), 'base64_key');
  const wallet = createWalletContract('V5R1', key.publicKey, 'mainnet');
  await fund(blockchain, wallet.address, toNano('2'));
  const to = new Address(0, randomBytes(32));
  const signed = await buildSignedExternal({
    wallet,
    secretKey: key.secretKey,
    seqno: 0,
    validUntil: Math.floor(Date.now() / 1000) + 60,
    messages: [{ to, value: toNano('0.1'), bounce: false }],
  });
  const { tx, all } = await sendBoc(blockchain, signed.boc, wallet.address);
  const received = all.find((t) => t.inMessage?.info.type === 'internal' && t !== tx)!;
  return { wallet: wallet.address, tx, received };
}

describe('toncenter v2 as published', () => {
  it("reads a fresh address's raw.fullAccountState as nonexist, zero balance", async () => {
    await serve(
      (url) =>
        url.pathname === '/api/v2/getAddressInformation'
          ? { status: 200, body: fixture('toncenter-v2-getAddressInformation.uninitialized.json') }
          : undefined,
      async (baseUrl) => {
        const client = new ToncenterChainClient({ baseUrl, maxRetries: 0 });
        const state = await client.getAccountState(new Address(0, randomBytes(32)));
        expect(state.balance).toBe(0n);
        expect(['nonexist', 'uninit']).toContain(state.status);
      },
    );
  });

  it('reads the rate-limit answer as the provider being unavailable (retryable), after its retries', async () => {
    let calls = 0;
    await serve(
      () => {
        calls += 1;
        return { status: 429, body: fixture('toncenter-v2-ratelimit.json') };
      },
      async (baseUrl) => {
        const client = new ToncenterChainClient({ baseUrl, maxRetries: 1, retryBaseDelayMs: 1 });
        const error = await client.getAccountState(new Address(0, randomBytes(32))).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ChainUnavailableError);
        expect(calls).toBe(2);
      },
    );
  });
});

describe('toncenter v3 transactionsByMessage as published (ton-index-go swagger)', () => {
  it('finds the receiving transaction from a string lt, a Base64 hash and a raw upper-case account', async () => {
    const { received } = await realTransaction();
    const account = new Address(0, Buffer.from(received.address.toString(16).padStart(64, '0'), 'hex'));
    const messageHash = beginCell().store(storeMessage(received.inMessage!)).endCell().hash().toString('hex');
    await serve(
      (url) => {
        if (url.pathname === '/api/v3/transactionsByMessage') {
          return {
            status: 200,
            body: {
              transactions: [
                {
                  account: account.toRawString().toUpperCase(),
                  hash: received.hash().toString('base64'),
                  lt: received.lt.toString(),
                  now: received.now,
                  orig_status: 'uninit',
                  end_status: 'uninit',
                },
              ],
              address_book: {
                [account.toRawString().toUpperCase()]: { user_friendly: account.toString({ bounceable: false }) },
              },
            },
          };
        }
        if (url.pathname === '/api/v2/getTransactions') {
          return {
            status: 200,
            body: {
              ok: true,
              result: [
                {
                  '@type': 'raw.transaction',
                  utime: received.now,
                  data: received.raw.toBoc().toString('base64'),
                  transaction_id: {
                    '@type': 'internal.transactionId',
                    lt: received.lt.toString(),
                    hash: received.hash().toString('base64'),
                  },
                },
              ],
            },
          };
        }
        return undefined;
      },
      async (baseUrl) => {
        const client = new ToncenterChainClient({ baseUrl, maxRetries: 0 });
        const found = await client.findTransactionByInMessageHash(account, messageHash);
        expect(found?.hash().equals(received.hash())).toBe(true);
        expect(await client.findTransactionByInMessageHash(new Address(0, randomBytes(32)), messageHash)).toBeNull();
      },
    );
  });
});
