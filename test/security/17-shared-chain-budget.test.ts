/**
 * Attack 17 (docs/security.md): anyone can use up the shared toncenter budget. The gateway and the
 * worker share one request rate (TONCENTER_RPS); `/submitted` read the chain before it checked a
 * BOC's signature and had no limit of its own, every open checkout re-walked its payer's history
 * every second, and a checkout may name any busy public wallet. Here an attacker opens twenty
 * checkouts on a wallet that keeps receiving transfers and floods `/submitted` with junk BOCs from
 * three clients, while an honest buyer makes a purchase. The service's toncenter requests (counted
 * by the sandbox, which enforces the plan's limit) must stay well below the budget during the
 * attack, and the purchase completes.
 */
import { request } from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';
import { Address, beginCell, storeMessage } from '@ton/core';
import { readToncenterTraffic } from '@starsgate/stack';
import { waitFor } from '@starsgate/platform/testing';
import { startStack, type RunningStack } from '../support/running-stack';
import { buyStars, demoWallets, json, waitForStatus, type DemoWallet } from './support/stack-client';

jest.setTimeout(300_000);

const TONCENTER_RPS = 10;
const OPEN_CHECKOUTS_PER_PAYER = 5;
const ATTACK_CHECKOUTS = 20;
const ATTACK_SECONDS = 20;
const FLOOD_CLIENTS = ['127.0.0.71', '127.0.0.72', '127.0.0.73'];
const FLOOD_PAUSE_MS = 40;
/** During the attack the service may use at most this share of the budget: the rest stays free for purchases. */
const BUDGET_SHARE_BOUND = 0.4;

interface Answer {
  status: number;
  code?: string;
  field?: string;
  checkoutId?: string;
}

function post(stack: RunningStack, path: string, body: unknown, from = '127.0.0.1'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${stack.gatewayUrl}${path}`,
      { method: 'POST', localAddress: from, headers: { 'Content-Type': 'application/json' } },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => {
          const parsed = JSON.parse(text) as {
            code?: string;
            details?: Array<{ field?: string }>;
            checkout_id?: string;
          };
          resolve({
            status: res.statusCode ?? 0,
            code: parsed.code,
            field: parsed.details?.[0]?.field,
            checkoutId: parsed.checkout_id,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** An external message to the payer whose "signature" is random bytes: anyone can make one. */
function junkBoc(payer: Address): string {
  const body = beginCell().storeBuffer(randomBytes(64)).storeUint(0x7369676e, 32).storeBuffer(randomBytes(12));
  const message = beginCell()
    .store(storeMessage({ info: { type: 'external-in', dest: payer, importFee: 0n }, body: body.endCell() }))
    .endCell();
  return message.toBoc().toString('base64');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function tally(answers: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const answer of answers) counts[answer] = (counts[answer] ?? 0) + 1;
  return counts;
}

async function fundDust(stack: RunningStack, address: string): Promise<void> {
  await json(`${stack.sandboxUrl}/faucet`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ address, gram: '0.001' }),
  });
}

describe('the shared chain budget under attack', () => {
  let stack: RunningStack;
  let wallets: Array<DemoWallet & { address: string; deployed: boolean }>;

  beforeAll(async () => {
    stack = await startStack({
      TONCENTER_API_KEY: 'attack-17-plan-key',
      TONCENTER_RPS: String(TONCENTER_RPS),
      SANDBOX_FAULTS: JSON.stringify({ rateLimit: { rps: TONCENTER_RPS, keylessRps: 1000 } }),
      OPEN_CHECKOUTS_PER_PAYER: String(OPEN_CHECKOUTS_PER_PAYER),
    });
    wallets = (await demoWallets(stack)) as typeof wallets;
  }, 240_000);
  afterAll(() => stack?.stop());

  it('keeps the service well inside its toncenter budget and an honest purchase completes', async () => {
    const [busy, honest] = wallets.filter((wallet) => wallet.deployed);
    const payer = Address.parse(busy!.address);

    // Many checkouts naming one busy wallet, sent at once: only a handful are accepted.
    const answers = await Promise.all(
      Array.from({ length: ATTACK_CHECKOUTS }, () =>
        post(stack, '/api/v1/checkouts', {
          product: 'stars',
          username: '@alice',
          amount: 50,
          payment_method: 'gram',
          payer_address: busy!.address,
          idempotency_key: randomUUID(),
        }),
      ),
    );
    const opened = answers.flatMap((answer) => (answer.status === 202 ? [answer.checkoutId!] : []));
    const refusedCheckouts = tally(
      answers
        .filter((answer) => answer.status !== 202)
        .map((answer) => `${answer.status} ${answer.code} ${answer.field}`),
    );

    await waitFor(
      async () => {
        const views = await Promise.all(
          opened.map((id) => json<{ status: string }>(`${stack.gatewayUrl}/api/v1/checkouts/${id}`)),
        );
        return views.every((view) => view.status === 'awaiting_signature');
      },
      { timeoutMs: 120_000, intervalMs: 500, what: 'the checkouts awaiting a signature' },
    );

    const before = await readToncenterTraffic(stack.sandboxUrl);
    const startedAt = Date.now();
    const attackEndsAt = startedAt + ATTACK_SECONDS * 1000;
    const floodAnswers: string[] = [];
    const floodFrom = async (client: string) => {
      for (let i = 0; Date.now() < attackEndsAt; i += 1) {
        const answer = await post(
          stack,
          `/api/v1/checkouts/${opened[i % opened.length]}/submitted`,
          { boc: junkBoc(payer) },
          client,
        );
        floodAnswers.push(`${answer.status} ${answer.code}`);
        await sleep(FLOOD_PAUSE_MS);
      }
    };
    // The busy wallet keeps receiving transfers, as a public exchange wallet does.
    const keepBusy = async () => {
      while (Date.now() < attackEndsAt) await fundDust(stack, busy!.address);
    };
    // An honest purchase while the attack runs: its chain reads go ahead of the checkout watch's.
    const honestPurchase = buyStars(stack, honest!, '@alice', randomUUID())
      .then((id) => waitForStatus(stack, id, 'completed', 90_000))
      .then(
        () => 'completed',
        (error: Error) => error.message.slice(0, 200),
      );
    await Promise.all([...FLOOD_CLIENTS.map(floodFrom), keepBusy()]);
    const seconds = (Date.now() - startedAt) / 1000;
    const after = await readToncenterTraffic(stack.sandboxUrl);
    const honestOutcome = await honestPurchase;

    const perSecond = Math.round(((after.service.requests - before.service.requests) / seconds) * 10) / 10;
    const flood = tally(floodAnswers);
    // One observation, shown whole when any part of it is wrong.
    const observed = { perSecond, flood, refusedCheckouts };
    expect({
      ...observed,
      openedCheckouts: opened.length,
      // A junk BOC is refused by its signature before any chain read, then by the checkout's own limit.
      floodRefusedBySignature: (flood['400 CHECKOUT_BAD_SIGNATURE'] ?? 0) > 0,
      floodLimitedPerCheckout: (flood['429 CHECKOUT_SUBMISSIONS_LIMITED'] ?? 0) > 0,
      withinBudgetShare: perSecond <= TONCENTER_RPS * BUDGET_SHARE_BOUND,
      honestOutcome,
    }).toEqual({
      ...observed,
      openedCheckouts: OPEN_CHECKOUTS_PER_PAYER,
      refusedCheckouts: {
        '429 OPEN_CHECKOUTS_LIMIT_REACHED payer_address': ATTACK_CHECKOUTS - OPEN_CHECKOUTS_PER_PAYER,
      },
      floodRefusedBySignature: true,
      floodLimitedPerCheckout: true,
      withinBudgetShare: true,
      honestOutcome: 'completed',
    });
  });
});
