/**
 * The checkout watch's reads of a payer (docs/security.md, attack 17) against the sandbox's
 * toncenter: one account read per scan, a walk only when the account has something newer than
 * what was read, one read for every checkout of the payer, and a verdict after a deadline from a
 * read begun after it.
 */
import { randomBytes } from 'node:crypto';
import { Address } from '@ton/core';
import { startSandbox, type StartedSandbox } from '@starsgate/sandbox';
import { waitFor } from '@starsgate/platform/testing';
import {
  buildSignedExternal,
  createWalletContract,
  deriveKeyPair,
  ToncenterChainClient,
  type ChainClient,
} from '@starsgate/ton';
import { PayerHistories } from '../src/purchases/chain/payer-history';

jest.setTimeout(60_000);

let sandbox: StartedSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, fragment: false, demoWallets: false, seed: 'payer-history' });
});
afterAll(() => sandbox?.close());

/** The sandbox's toncenter, counting what the histories ask of it. */
function countingChain() {
  const chain = new ToncenterChainClient({ baseUrl: `${sandbox.url}/toncenter` });
  const calls = { accountStates: 0, walks: 0 };
  const counted: Pick<ChainClient, 'getAccountState' | 'walkTransactions'> = {
    getAccountState: (address) => {
      calls.accountStates += 1;
      return chain.getAccountState(address);
    },
    walkTransactions: (address, visit, options) => {
      calls.walks += 1;
      return chain.walkTransactions(address, visit, options);
    },
  };
  return { counted, calls };
}

async function lastLt(payer: Address): Promise<bigint> {
  return (await new ToncenterChainClient({ baseUrl: `${sandbox.url}/toncenter` }).getAccountState(payer))
    .lastTransaction!.lt;
}

test('one account read per scan, a walk only of what is new, one read for all checkouts of a payer', async () => {
  const payer = new Address(0, randomBytes(32));
  await sandbox.chain.fund(payer, { gram: 1_000_000_000n });
  const since = await lastLt(payer);
  await sandbox.chain.fund(payer, { gram: 1_000n });

  let now = 1_000_000;
  const { counted, calls } = countingChain();
  const histories = new PayerHistories(counted, { reuseMs: 1_000, now: () => now });

  // Five checkouts of one payer asking at once: one account read and one walk.
  const views = await Promise.all(Array.from({ length: 5 }, () => histories.view(payer, since)));
  expect(calls).toEqual({ accountStates: 1, walks: 1 });
  expect(views.map((view) => view.idleScans)).toEqual([0, 0, 0, 0, 0]);

  // Within reuseMs: answered from the read.
  now += 500;
  await histories.view(payer, since);
  expect(calls).toEqual({ accountStates: 1, walks: 1 });

  // Later, nothing new on the account: one account read, no walk, and the scan counts as idle.
  now += 1_500;
  expect((await histories.view(payer, since)).idleScans).toBe(1);
  now += 1_500;
  expect((await histories.view(payer, since)).idleScans).toBe(2);
  expect(calls).toEqual({ accountStates: 3, walks: 1 });

  // A new transaction: one account read and a walk of what is newer only.
  await sandbox.chain.fund(payer, { gram: 1_000n });
  now += 1_500;
  expect((await histories.view(payer, since)).idleScans).toBe(0);
  expect(calls).toEqual({ accountStates: 4, walks: 2 });

  // A verdict after a deadline: a read begun after it, even within reuseMs.
  now += 10;
  await histories.view(payer, since, now);
  expect(calls).toEqual({ accountStates: 5, walks: 2 });

  // A checkout that started earlier than what was read: walked down to its own start.
  now += 10;
  await histories.view(payer, since - 1n, 0);
  expect(calls).toEqual({ accountStates: 6, walks: 3 });
});

test("a scan sees every external since the checkout's start, whichever read brought it", async () => {
  const key = await deriveKeyPair(randomBytes(32).toString('base64'), 'base64_key');
  const wallet = createWalletContract('V5R1', key.publicKey, 'mainnet');
  const payer = wallet.address;
  await sandbox.chain.fund(payer, { gram: 1_000_000_000n });
  const since = await lastLt(payer);
  const chain = new ToncenterChainClient({ baseUrl: `${sandbox.url}/toncenter` });
  let now = 2_000_000;
  const histories = new PayerHistories(countingChain().counted, { reuseMs: 0, now: () => now });
  const externalsSeen = async (sinceLt = since) => {
    const lts: bigint[] = [];
    const end = await (
      await histories.view(payer, sinceLt)
    ).chain.walkTransactions(payer, (tx) => {
      lts.push(tx.lt);
      return false;
    });
    return { lts, end: end.end };
  };
  const send = async (seqno: number) => {
    const { boc } = await buildSignedExternal({
      wallet,
      secretKey: key.secretKey,
      seqno,
      validUntil: Math.floor(Date.now() / 1000) + 60,
      messages: [{ to: new Address(0, randomBytes(32)), value: 1_000n, bounce: false }],
    });
    await chain.sendBoc(boc);
    await waitFor(async () => (await chain.getSeqno(payer)) === seqno + 1, { timeoutMs: 20_000, what: 'the external' });
    return lastLt(payer);
  };

  expect(await externalsSeen()).toEqual({ lts: [], end: 'complete' });
  const first = await send(0);
  now += 1;
  expect(await externalsSeen()).toEqual({ lts: [first], end: 'complete' });
  await sandbox.chain.fund(payer, { gram: 1_000n });
  const second = await send(1);
  now += 1;
  // The first came with an earlier read, the second with an incremental one: both are there.
  expect(await externalsSeen()).toEqual({ lts: [second, first], end: 'complete' });
  // A checkout that started after the first sees the second only.
  expect(await externalsSeen(first)).toEqual({ lts: [second], end: 'complete' });
});
