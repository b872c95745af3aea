import { Address, beginCell, Cell, internal, loadMessage, SendMode, toNano } from '@ton/core';
import { TonClient, WalletContractV5R1 } from '@ton/ton';
import { keyPairFromSeed } from '@ton/crypto';
import { randomBytes } from 'node:crypto';
import { waitFor } from '@starsgate/platform/testing';
import { startSandbox, type StartedSandbox } from '../src';
import { jettonTransferBody } from '../src/chain/usdt-jetton';
import { demo, getJson, gramTo, postJson, putJson, sleep, v5r1Wallet, type SigningWallet } from './helpers';

const BLOCK_MS = 500;
let sb: StartedSandbox;
let v2: string;
let v3: string;
let payer: SigningWallet;

beforeAll(async () => {
  sb = await startSandbox({ port: 0, blockMs: BLOCK_MS, fragment: false, seed: 'sandbox-test' });
  v2 = `${sb.url}/toncenter/api/v2`;
  v3 = `${sb.url}/toncenter/api/v3`;
  payer = await v5r1Wallet(demo(sb.demoWallets, 'base64-v5r1'));
});
afterAll(async () => {
  await sb?.close();
});

const freshAddress = () => WalletContractV5R1.create({ publicKey: keyPairFromSeed(randomBytes(32)).publicKey }).address;
const seqnoOf = async (a: Address): Promise<number> =>
  (await getJson(`${v3}/walletStates?address=${a.toString()}`)).body.wallets[0].seqno ?? 0;

describe('toncenter v2 shapes (raw fetch)', () => {
  test('getAddressInformation / getAddressState / getAddressBalance / getWalletInformation', async () => {
    const info = await getJson(`${v2}/getAddressInformation?address=${payer.address.toString()}`);
    expect(info.status).toBe(200);
    expect(info.body.ok).toBe(true);
    expect(info.body.result).toMatchObject({
      '@type': 'raw.fullAccountState',
      state: 'active',
      last_transaction_id: { '@type': 'internal.transactionId' },
    });
    expect(BigInt(info.body.result.balance)).toBeGreaterThan(toNano('999'));
    expect(Cell.fromBase64(info.body.result.code).hash().equals(payer.contract.init.code.hash())).toBe(true);

    const fresh = freshAddress();
    expect((await getJson(`${v2}/getAddressState?address=${fresh.toString()}`)).body).toEqual({
      ok: true,
      result: 'uninitialized',
    });
    expect((await getJson(`${v2}/getAddressBalance?address=${fresh.toRawString()}`)).body).toEqual({
      ok: true,
      result: '0',
    });

    const v4 = demo(sb.demoWallets, 'ton24-v4r2');
    const wi = await getJson(`${v2}/getWalletInformation?address=${v4.address}`);
    expect(wi.body.result).toMatchObject({
      wallet: true,
      wallet_type: 'wallet v4 r2',
      seqno: 1,
      wallet_id: 698983191,
      account_state: 'active',
    });
    const ws = await getJson(`${v3}/walletStates?address=${v4.address},${payer.address.toString()}`);
    expect(ws.body.wallets.map((w: { wallet_type: string }) => w.wallet_type)).toEqual(['wallet_v4r2', 'wallet_v5r1']);
    expect(ws.body.wallets[1]).toMatchObject({ status: 'active', is_wallet: true, wallet_id: 2147483409 });
  });

  test('runGetMethod v2 stack format and errors in toncenter shape', async () => {
    const r = await postJson(`${v2}/runGetMethod`, { address: payer.address.toString(), method: 'seqno', stack: [] });
    expect(r.body.result).toMatchObject({ '@type': 'smc.runResult', exit_code: 0 });
    expect(r.body.result.stack[0][0]).toBe('num');
    expect(r.body.result.stack[0][1]).toMatch(/^0x[0-9a-f]+$/);
    const jw = await postJson(`${v2}/runGetMethod`, {
      address: sb.chain.usdtMaster.toString(),
      method: 'get_wallet_address',
      stack: [['tvm.Slice', beginCell().storeAddress(payer.address).endCell().toBoc().toString('base64')]],
    });
    const cell = Cell.fromBase64(jw.body.result.stack[0][1].bytes);
    expect(
      cell
        .beginParse()
        .loadAddress()
        .equals(await sb.chain.getJettonWalletAddress(payer.address)),
    ).toBe(true);
    const uninit = await postJson(`${v2}/runGetMethod`, {
      address: freshAddress().toString(),
      method: 'seqno',
      stack: [],
    });
    expect(uninit.body.result.exit_code).toBe(-13);
    const bad = await getJson(`${v2}/getAddressInformation?address=nonsense`);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ ok: false, code: 400 });
    expect(typeof bad.body.error).toBe('string');
  });

  test('a signed V5R1 transfer is accepted at once but visible only after the next block', async () => {
    const to = freshAddress();
    const seqno = await seqnoOf(payer.address);
    const boc = payer.transfer(seqno, [gramTo(to, toNano('1.25'), 'hello')]);
    const blocksBefore = sb.chain.lastBlockSeqno;
    const sent = await postJson(`${v2}/sendBocReturnHash`, { boc });
    expect(sent.status).toBe(200);
    expect(sent.body.result['@type']).toBe('ext_message_info');
    const msg = loadMessage(Cell.fromBase64(boc).beginParse());
    expect(sent.body.result.hash).toBe(Cell.fromBase64(boc).hash().toString('base64'));
    // TEP-467, computed here independently: src addr_none, import_fee 0, no init, body as ref.
    if (msg.info.type !== 'external-in') throw new Error('not external');
    const norm = beginCell()
      .storeUint(0b10, 2)
      .storeUint(0, 2)
      .storeAddress(msg.info.dest)
      .storeCoins(0)
      .storeBit(false)
      .storeBit(true)
      .storeRef(msg.body)
      .endCell()
      .hash();
    expect(sent.body.result.hash_norm).toBe(norm.toString('base64'));

    // Not yet in a block: unless a block ran meanwhile, nothing is visible.
    const early = await getJson(
      `${v3}/transactionsByMessage?msg_hash=${encodeURIComponent(sent.body.result.hash_norm)}&direction=in`,
    );
    if (sb.chain.lastBlockSeqno === blocksBefore) {
      expect(early.body.transactions).toEqual([]);
      expect(await seqnoOf(payer.address)).toBe(seqno);
    }
    // By normalized hash in base64url and by raw hash in hex: the same transaction.
    const normUrl = Buffer.from(sent.body.result.hash_norm, 'base64').toString('base64url');
    const found = await waitFor(async () => {
      const r = await getJson(`${v3}/transactionsByMessage?msg_hash=${normUrl}&direction=in`);
      return r.body.transactions.length ? r.body : null;
    });
    expect(sb.chain.lastBlockSeqno).toBeGreaterThan(blocksBefore);
    const tx = found.transactions[0];
    expect(tx.account).toBe(`0:${payer.address.hash.toString('hex').toUpperCase()}`);
    expect(tx.in_msg.hash).toBe(sent.body.result.hash);
    expect(tx.in_msg.hash_norm).toBe(sent.body.result.hash_norm);
    expect(tx.description).toMatchObject({
      aborted: false,
      compute_ph: { success: true, exit_code: 0 },
      action: { success: true, skipped_actions: 0, msgs_created: 1 },
    });
    expect(typeof tx.mc_block_seqno).toBe('number');
    const byRaw = await getJson(
      `${v3}/transactionsByMessage?msg_hash=${Buffer.from(sent.body.result.hash, 'base64').toString('hex')}&direction=in`,
    );
    expect(byRaw.body.transactions[0].hash).toBe(tx.hash);

    expect(await seqnoOf(payer.address)).toBe(seqno + 1);
    expect((await getJson(`${v2}/getAddressBalance?address=${to.toString()}`)).body.result).toBe('1250000000');

    // v2 getTransactions: newest first, data = raw tx BOC, lt+hash paging.
    const list = await getJson(`${v2}/getTransactions?address=${payer.address.toString()}&limit=3`);
    const first = list.body.result[0];
    expect(first.transaction_id.hash).toBe(tx.hash);
    expect(Cell.fromBase64(first.data).hash().toString('base64')).toBe(tx.hash);
    expect(first.in_msg.hash).toBe(sent.body.result.hash);
    expect(first.out_msgs).toHaveLength(1);
    expect(first.out_msgs[0]).toMatchObject({ value: '1250000000', message: 'hello' });
    expect(BigInt(first.fee)).toBeGreaterThan(0n);
    expect(BigInt(first.fee)).toBeLessThan(toNano('0.002')); // 2026 fee params
    const lts = list.body.result.map((t: { transaction_id: { lt: string } }) => BigInt(t.transaction_id.lt));
    expect([...lts].sort((a, b) => (a > b ? -1 : 1))).toEqual(lts);
    const page = await getJson(
      `${v2}/getTransactions?address=${payer.address.toString()}&limit=2&lt=${list.body.result[1].transaction_id.lt}&hash=${encodeURIComponent(list.body.result[1].transaction_id.hash)}`,
    );
    expect(page.body.result[0].transaction_id).toEqual(list.body.result[1].transaction_id);

    // Replaying the same signed message is rejected like on mainnet (seqno already used: 133).
    const replay = await postJson(`${v2}/sendBoc`, { boc });
    expect(replay.status).toBe(500);
    expect(replay.body.ok).toBe(false);
    expect(replay.body.error).toContain('exitcode=133');
    // A message signed with the wrong key is rejected too (135).
    const other = keyPairFromSeed(randomBytes(32));
    const forged = payer.contract.createTransfer({
      seqno: seqno + 1,
      secretKey: other.secretKey,
      messages: [gramTo(to, 1n)],
      sendMode: SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS,
    });
    const forgedBoc = beginCell()
      .storeUint(0b10, 2)
      .storeUint(0, 2)
      .storeAddress(payer.address)
      .storeCoins(0)
      .storeBit(false)
      .storeBit(true)
      .storeRef(forged)
      .endCell();
    const bad = await postJson(`${v3}/message`, { boc: forgedBoc.toBoc().toString('base64') });
    expect(bad.status).toBe(500);
    expect(bad.body.error).toContain('exitcode=135');
  });
});

describe('through @ton/ton TonClient (jsonRPC)', () => {
  test('getBalance, getContractState, runMethod, sendExternalMessage, getTransactions, estimateFee', async () => {
    const client = new TonClient({ endpoint: `${v2}/jsonRPC` });
    const wallet = client.open(payer.contract);
    const balance = await client.getBalance(payer.address);
    expect(balance).toBe(await sb.chain.getBalance(payer.address));
    const state = await client.getContractState(payer.address);
    expect(state.state).toBe('active');
    const seqno = (await client.runMethod(payer.address, 'seqno')).stack.readNumber();
    expect(seqno).toBe(await wallet.getSeqno());

    const to = freshAddress();
    const fee = await client.estimateExternalMessageFee(payer.address, {
      body: payer.contract.createTransfer({
        seqno,
        secretKey: payer.secretKey,
        messages: [gramTo(to, toNano('0.5'))],
        sendMode: SendMode.PAY_GAS_SEPARATELY,
      }),
      initCode: null,
      initData: null,
      ignoreSignature: true,
    });
    expect(fee.source_fees.gas_fee).toBeGreaterThan(0);
    expect(fee.source_fees.in_fwd_fee).toBeGreaterThan(0);

    await wallet.sendTransfer({
      seqno,
      secretKey: payer.secretKey,
      messages: [gramTo(to, toNano('0.5'))],
      sendMode: SendMode.PAY_GAS_SEPARATELY,
    });
    await waitFor(async () => (await client.getBalance(to)) === toNano('0.5'));
    const txs = await client.getTransactions(payer.address, { limit: 5 });
    expect(txs[0]?.outMessages.get(0)?.info.dest?.toString()).toBe(to.toString());
    expect(await wallet.getSeqno()).toBe(seqno + 1);
    // Paging as TonClient does it (lt + base64 hash, exclusive).
    const next = await client.getTransactions(payer.address, {
      limit: 2,
      lt: txs[0]!.lt.toString(),
      hash: txs[0]!.hash().toString('base64'),
    });
    expect(next[0]?.lt).toBe(txs[1]?.lt);
  });
});

describe('USDT stand-in and faucet', () => {
  test('faucet funds GRAM and USDT; a jetton transfer shows up in jetton/wallets balances', async () => {
    const recipient = freshAddress();
    const bad = await postJson(`${sb.url}/faucet`, { address: recipient.toString(), gram: '1.0000000001' });
    expect(bad.status).toBe(400);
    const funded = await postJson(`${sb.url}/faucet`, { address: recipient.toString(), gram: '2.5', usdt: '3.25' });
    expect(funded.status).toBe(200);
    expect(funded.body.balances).toEqual({ gram: '2.5', usdt: '3.25' });

    const before = await getJson(
      `${v3}/jetton/wallets?owner_address=${payer.address.toString()}&jetton_address=${sb.chain.usdtMaster.toString()}`,
    );
    const payerUsdt = BigInt(before.body.jetton_wallets[0].balance);
    const payerJw = await sb.chain.getJettonWalletAddress(payer.address);
    expect(before.body.jetton_wallets[0].address).toBe(`0:${payerJw.hash.toString('hex').toUpperCase()}`);

    const seqno = await seqnoOf(payer.address);
    const body = jettonTransferBody({
      amount: 1_500_000n,
      destination: recipient,
      responseDestination: payer.address,
      forwardTonAmount: 1n,
      forwardPayload: beginCell().storeUint(0, 32).storeStringTail('order 42').endCell(),
    });
    const boc = payer.transfer(seqno, [internal({ to: payerJw, value: toNano('0.05'), bounce: true, body })]);
    const { body: sent } = await postJson(`${v3}/message`, { boc });
    expect(sent.message_hash_norm).toBeTruthy();
    await sb.chain.waitForTransaction(sent.message_hash_norm);

    const after = await getJson(`${v3}/jetton/wallets?owner_address=${payer.address.toString()}`);
    expect(BigInt(after.body.jetton_wallets[0].balance)).toBe(payerUsdt - 1_500_000n);
    const rcpt = await getJson(
      `${v3}/jetton/wallets?owner_address=${recipient.toRawString()}&jetton_address=${sb.chain.usdtMaster.toRawString()}`,
    );
    expect(rcpt.body.jetton_wallets[0]).toMatchObject({
      balance: String(3_250_000n + 1_500_000n),
      jetton: `0:${sb.chain.usdtMaster.hash.toString('hex').toUpperCase()}`,
    });
    // The receiving jetton wallet got internal_transfer and notified the owner.
    const rjw = await sb.chain.getJettonWalletAddress(recipient);
    const rtx = await getJson(`${v3}/transactions?account=${rjw.toString()}&limit=1`);
    expect(rtx.body.transactions[0].in_msg.opcode).toBe('0x178d4519');
    expect(rtx.body.transactions[0].out_msgs.map((m: { opcode: string }) => m.opcode)).toContain('0x7362d09c');
  });
});

describe('chain fault switches', () => {
  afterEach(async () => {
    await putJson(`${sb.url}/admin/faults`, {});
  });

  test('faults given at start apply to clients, not to the sandbox deploying its own demo wallets', async () => {
    const faulty = await startSandbox({
      port: 0,
      blockMs: BLOCK_MS,
      fragment: false,
      seed: 'sandbox-faults-at-start',
      faults: { dropExternals: { rate: 1 } },
    });
    try {
      expect(faulty.demoWallets.length).toBeGreaterThan(0);
      expect(faulty.chain.faults.get()).toEqual({ dropExternals: { rate: 1 } });
      expect(faulty.chain.faults.takeDropExternal()).toBe(true);
    } finally {
      await faulty.close();
    }
  });

  test('429 with Retry-After, then served again', async () => {
    const set = await putJson(`${sb.url}/admin/faults`, { http429: { next: 1, retryAfterSec: 2 } });
    expect(set.body.faults).toEqual({ http429: { next: 1, retryAfterSec: 2 } });
    const r = await getJson(`${v2}/getAddressBalance?address=${payer.address.toString()}`);
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('2');
    expect(r.body).toEqual({ ok: false, result: 'Ratelimit exceed', code: 429 });
    expect((await getJson(`${v2}/getAddressBalance?address=${payer.address.toString()}`)).status).toBe(200);
  });

  test('5xx for the next N calls, seen by TonClient too', async () => {
    await putJson(`${sb.url}/admin/faults`, { http5xx: { next: 2, status: 503 } });
    const client = new TonClient({ endpoint: `${v2}/jsonRPC` });
    await expect(client.getBalance(payer.address)).rejects.toThrow();
    expect((await getJson(`${v3}/walletStates?address=${payer.address.toString()}`)).status).toBe(503);
    expect(await client.getBalance(payer.address)).toBeGreaterThan(0n);
    expect((await getJson(`${sb.url}/admin/faults`)).body.fired.http5xx).toBeGreaterThanOrEqual(2);
  });

  test('send accepted but never included', async () => {
    await putJson(`${sb.url}/admin/faults`, { dropExternals: { next: 1 } });
    const seqno = await seqnoOf(payer.address);
    const boc = payer.transfer(seqno, [gramTo(freshAddress(), toNano('0.1'))]);
    const sent = await postJson(`${v2}/sendBocReturnHash`, { boc });
    expect(sent.body.ok).toBe(true);
    await sleep(BLOCK_MS * 3);
    const r = await getJson(`${v3}/transactionsByMessage?msg_hash=${encodeURIComponent(sent.body.result.hash_norm)}`);
    expect(r.body.transactions).toEqual([]);
    expect(await seqnoOf(payer.address)).toBe(seqno);
    // The same message re-broadcast after the fault is gone lands (idempotent by hash).
    await postJson(`${v2}/sendBoc`, { boc });
    await sb.chain.waitForTransaction(sent.body.result.hash_norm);
    expect(await seqnoOf(payer.address)).toBe(seqno + 1);
  });

  test('inclusion delayed by extra ms', async () => {
    await putJson(`${sb.url}/admin/faults`, { inclusionDelayMs: 2000 });
    const seqno = await seqnoOf(payer.address);
    const started = Date.now();
    const sent = await postJson(`${v3}/message`, {
      boc: payer.transfer(seqno, [gramTo(freshAddress(), toNano('0.1'))]),
    });
    await sleep(BLOCK_MS * 2.5);
    expect(
      sb.chain.transactionIndex.byInboundMessage(Buffer.from(sent.body.message_hash_norm, 'base64')),
    ).toBeUndefined();
    await sb.chain.waitForTransaction(sent.body.message_hash_norm, 10_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
  });

  test('latency: every request waits a draw from the range first', async () => {
    const set = await putJson(`${sb.url}/admin/faults`, { latency: { minMs: 300, maxMs: 300 } });
    expect(set.body.faults).toEqual({ latency: { minMs: 300, maxMs: 300 } });
    const started = Date.now();
    const r = await getJson(`${v2}/getAddressBalance?address=${payer.address.toString()}`);
    expect(r.status).toBe(200);
    // A lower bound only (a timer never fires before its delay, give or take its 1 ms rounding).
    expect(Date.now() - started).toBeGreaterThanOrEqual(299);
  });

  test('invalid fault JSON is refused', async () => {
    const r = await putJson(`${sb.url}/admin/faults`, { http5xx: { rate: 2 } });
    expect(r.status).toBe(400);
    for (const latency of [{ minMs: 5 }, { minMs: 10, maxMs: 5 }, { minMs: -1, maxMs: 5 }]) {
      expect((await putJson(`${sb.url}/admin/faults`, { latency })).status).toBe(400);
    }
  });
});

describe('demo endpoint', () => {
  test('GET /demo lists deterministic wallets and usernames', async () => {
    const { body } = await getJson(`${sb.url}/demo`);
    expect(body.wallets.map((w: { id: string }) => w.id)).toEqual([
      'bip39-0',
      'bip39-1',
      'ton24-v4r2',
      'base64-v5r1',
      'poor-v5r1',
    ]);
    expect(body.wallets[0].seed.split(' ')).toHaveLength(12);
    expect(body.wallets[2].seed.split(' ')).toHaveLength(24);
    expect(body.usernames.map((u: { username: string }) => u.username)).toEqual(
      expect.arrayContaining(['@alice', '@premium_pat', '@helper_bot', '@news_channel', '@frozen_fay']),
    );
    const poor = demo(body.wallets, 'poor-v5r1');
    expect((await getJson(`${v2}/getAddressBalance?address=${poor.address}`)).body.result).toBe('20000000');
    expect(await sb.chain.getJettonBalance(Address.parse(poor.address))).toBe(0n);
    const bip0 = demo(body.wallets, 'bip39-0');
    expect((await getJson(`${v2}/getAddressState?address=${bip0.address}`)).body.result).toBe('uninitialized');
  });
});
