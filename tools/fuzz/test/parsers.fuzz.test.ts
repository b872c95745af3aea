/**
 * The parsers behind the gateway and the worker, fuzzed directly: the seed parser (every accepted
 * format and near misses), the address parser, the BOC verification of checkouts (real signed
 * externals of a sandbox wallet, truncated and bit-flipped) and the checkout payer's StateInit,
 * Fragment's comment payloads, and Fragment's HTML and JSON answers (history pages, ajInit pages,
 * prices, init and link answers). Property: the call returns, or throws only its module's typed
 * error (AppError, ChainError, FragmentError, FragmentPayloadError); never a TypeError, a
 * RangeError or anything else a caller would turn into a 500.
 */
import fc from 'fast-check';
import { Address, beginCell } from '@ton/core';
import { AppError } from '@starsgate/domain';
import {
  FragmentError,
  FragmentPayloadError,
  decodeCommentPayload,
  extractApiHash,
  htmlToText,
  isCloudflareChallenge,
  pageLoggedIn,
  parseAjInit,
  parseAmountToNano,
  parseCurPrice,
  parseHistoryDateText,
  parseHistoryMore,
  parseHistoryPage,
  parseImgSrc,
  parseInitAnswer,
  parseOptionPrices,
  parseTransaction,
  parseWalletInit,
  raiseBusinessError,
  unescapeHtml,
} from '@starsgate/fragment';
import {
  buildSendTransactionRequest,
  buildSignedExternal,
  ChainError,
  classifySeed,
  createWalletContract,
  deriveKeyPair,
  formatAddress,
  parseWalletAddressDetailed,
  resolveCheckoutPayer,
  resolveWalletOffline,
  ToncenterChainClient,
  verifySignedBoc,
  type SendTransactionRequest,
} from '@starsgate/ton';
import { startSandbox, type DemoWallet, type StartedSandbox } from '@starsgate/sandbox';
import { assertProperty, assertSyncProperty, printSummary, FUZZ_TEST_TIMEOUT_MS } from './support/fuzz-settings';
import { addressArbitrary, BIP39_PHRASE, bocArbitrary, seedArbitrary } from './support/domain-values';

jest.setTimeout(FUZZ_TEST_TIMEOUT_MS);

let sandbox: StartedSandbox;
let chain: ToncenterChainClient;
let payer: DemoWallet;
let request: SendTransactionRequest;
let realBocs: string[];

/** Fails the case when `error` is not one of the module's typed errors. */
function expectTyped(error: unknown, allowed: Array<abstract new (...args: never[]) => Error>, input: unknown): void {
  if (allowed.some((type) => error instanceof type)) return;
  const text = typeof input === 'string' ? input.slice(0, 300) : JSON.stringify(input)?.slice(0, 300);
  throw new Error(
    `a raw ${(error as Error)?.name ?? typeof error} escaped: ${(error as Error)?.message}\n  input: ${text}`,
    {
      cause: error,
    },
  );
}

const RECEIVER = Address.parse('EQBAjaOyi2wGWlk-EDkSabqqnF-MrrwMadnwqrurKpkla9nE');

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 'fuzz-parsers', blockMs: 100, fragment: false });
  chain = new ToncenterChainClient({ baseUrl: `${sandbox.url}/toncenter`, maxRetries: 0 });
  payer = sandbox.demoWallets.find((wallet) => wallet.deployed && wallet.version === 'V5R1')!;
  const keys = await deriveKeyPair(payer.seed, payer.format, payer.accountIndex);
  const wallet = createWalletContract('V5R1', keys.publicKey, 'mainnet');
  const validUntil = Math.floor(Date.now() / 1000) + 280;
  const payload = beginCell().storeUint(0, 32).storeStringTail('50 Telegram Stars \n\nRef#AbCdEfGh1').endCell();
  request = buildSendTransactionRequest({
    from: wallet.address,
    network: 'mainnet',
    validUntil,
    now: Math.floor(Date.now() / 1000),
    messages: [{ to: RECEIVER, bounce: true, amount: 1_000_000n, payload }],
  });
  const seqno = await chain.getSeqno(wallet.address);
  realBocs = await Promise.all(
    [seqno, seqno + 1, 0].map(async (s) => {
      const signed = await buildSignedExternal({
        wallet,
        secretKey: keys.secretKey,
        seqno: s,
        validUntil,
        messages: [{ to: RECEIVER, value: 1_000_000n, bounce: true, body: payload }],
      });
      return signed.boc;
    }),
  );
});

afterAll(async () => {
  printSummary('parsers');
  await sandbox?.close();
});

describe('ton', () => {
  test('the seed parser: every accepted format, near misses, anything', async () => {
    const seed = fc.oneof(seedArbitrary(sandbox.demoWallets), fc.constant(BIP39_PHRASE));
    await assertProperty(
      'classifySeed',
      seed,
      async (input) => {
        try {
          expect(['bip39_12', 'ton_24', 'base64_key']).toContain(await classifySeed(input));
        } catch (error) {
          expectTyped(error, [AppError], input);
          expect(['UNSUPPORTED_WALLET_SEED_FORMAT', 'INVALID_BIP39_SEED']).toContain((error as AppError).code);
        }
      },
      300,
    );
  });

  test('offline wallet resolution: seed, address and account index of any type', async () => {
    const known = sandbox.demoWallets.map((wallet) => Address.parse(wallet.address));
    const input = fc.record(
      {
        seed: seedArbitrary(sandbox.demoWallets),
        wallet_address: fc.oneof(addressArbitrary(known), fc.constant(null)),
        account_index: fc.oneof(
          fc.integer({ min: -3, max: 103 }),
          fc.constantFrom(null, 0.5, Number.NaN, Infinity, '1', 2 ** 53, -0),
        ),
      },
      { requiredKeys: ['seed'] },
    );
    await assertProperty(
      'resolveWalletOffline',
      input,
      async (selection) => {
        try {
          await resolveWalletOffline(selection as Parameters<typeof resolveWalletOffline>[0], 'mainnet');
        } catch (error) {
          expectTyped(error, [AppError], selection);
        }
      },
      60,
    );
  });

  test('the address parser: every form, near misses, anything; what it accepts round-trips', () => {
    const known = sandbox.demoWallets.map((wallet) => Address.parse(wallet.address));
    const input = fc.oneof(
      addressArbitrary(known) as fc.Arbitrary<unknown>,
      fc.string({ maxLength: 120 }),
      fc.anything({ maxDepth: 1 }),
    );
    assertSyncProperty(
      'parseWalletAddressDetailed',
      fc.tuple(input, fc.constantFrom('mainnet' as const, 'testnet' as const)),
      ([text, network]) => {
        let parsed;
        try {
          parsed = parseWalletAddressDetailed(text as string, network);
        } catch (error) {
          expectTyped(error, [AppError], text);
          expect((error as AppError).code).toBe('INVALID_WALLET_ADDRESS');
          return;
        }
        const { friendly, raw } = formatAddress(parsed.address, network);
        expect(parseWalletAddressDetailed(friendly, network).address.equals(parsed.address)).toBe(true);
        expect(parseWalletAddressDetailed(raw, network).address.equals(parsed.address)).toBe(true);
      },
      2_000,
    );
  });

  test('the checkout BOC verification: real signed externals, mutated, and no BOC at all', async () => {
    // The real BOC at the wallet's seqno is the one a wallet would return: it verifies.
    await expect(verifySignedBoc(realBocs[0]!, request, { network: 'mainnet', chain })).resolves.toMatchObject({
      walletVersion: 'V5R1',
    });
    await assertProperty(
      'verifySignedBoc',
      bocArbitrary(realBocs),
      async (boc) => {
        try {
          await verifySignedBoc(boc, request, { network: 'mainnet', chain });
        } catch (error) {
          expectTyped(error, [AppError, ChainError], boc);
        }
      },
      200,
    );
  });

  test("the checkout payer's public key and StateInit", async () => {
    const known = sandbox.demoWallets.map((wallet) => Address.parse(wallet.address));
    const random = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((hash) => new Address(0, Buffer.from(hash)));
    const input = fc.record({
      address: fc.oneof(fc.constantFrom(...known), random),
      publicKey: fc.oneof(
        fc.constant(undefined),
        fc.stringMatching(/^[0-9a-fA-F]{64}$/),
        fc.constantFrom(...sandbox.demoWallets.map((w) => w.publicKeyHex)),
      ),
      stateInit: fc.oneof(fc.constant(undefined), bocArbitrary(realBocs)),
    });
    await assertProperty(
      'resolveCheckoutPayer',
      input,
      async ({ address, publicKey, stateInit }) => {
        try {
          await resolveCheckoutPayer(address, { publicKey, stateInit }, { network: 'mainnet', chain });
        } catch (error) {
          expectTyped(error, [AppError, ChainError], { address: address.toRawString(), publicKey, stateInit });
        }
      },
      150,
    );
  });
});

describe('fragment', () => {
  const comment = fc.oneof(
    fc
      .tuple(fc.integer({ min: 0, max: 2_000_000 }), fc.stringMatching(/^[A-Za-z0-9]{9}$/))
      .map(([n, ref]) => `${n} Telegram Stars \n\nRef#${ref}`),
    fc.constantFrom(
      'Telegram Premium for 3 months \n\nRef#AbCdEfGh1',
      'Telegram Premium for 1 year \n\nRef#AbCdEfGh1',
      `${'9'.repeat(40)} Telegram Stars \n\nRef#AbCdEfGh1`,
    ),
    fc.string({ maxLength: 200 }),
  );
  const commentBoc = fc
    .tuple(comment, fc.constantFrom(0, 1, 0x0f8a7ea5))
    .map(([text, op]) => beginCell().storeUint(op, 32).storeStringTail(text).endCell().toBoc().toString('base64url'));

  test('comment payloads (the Ref# that proves a payment)', () => {
    assertSyncProperty(
      'decodeCommentPayload',
      fc.oneof(commentBoc, bocArbitrary(), fc.string({ maxLength: 100 })),
      (payload) => {
        try {
          decodeCommentPayload(payload);
        } catch (error) {
          expectTyped(error, [FragmentPayloadError], payload);
        }
      },
      1_000,
    );
  });

  const username = fc.stringMatching(/^[A-Za-z0-9_]{1,32}$/);
  const htmlText = fc.oneof(
    fc.string({ maxLength: 30 }),
    fc.constantFrom('&amp;', '&#036;', '&#x1F600;', '&#99999999;', '&#xZZ;', '<', '"', '\u00a0'),
  );
  const historyRow = fc
    .record({
      who: fc.oneof(
        username.map((u) => `@${u}`),
        htmlText,
      ),
      what: fc.oneof(
        fc.integer({ min: 0, max: 2_000_000 }).map((n) => n.toLocaleString('en-US')),
        fc.constantFrom('3 months', '6 months', '1 year', '12 months', '0 months'),
        htmlText,
      ),
      price: fc.oneof(
        fc.tuple(fc.nat(999), fc.nat(9999)).map(([a, b]) => `${a}<span class="mini-frac">.${b}</span>`),
        htmlText,
      ),
      at: fc.oneof(
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        // Date text as the history's `time.short` cells show it (docs/fragment-protocol.md §17.2).
        fc
          .tuple(fc.date({ noInvalidDate: true }), fc.boolean())
          .map(
            ([d, year]) =>
              `${d.toLocaleString('en-US', { month: 'short', timeZone: 'UTC' })} ${d.getUTCDate()}${year ? `, ${d.getUTCFullYear()}` : ''} at ${d.toISOString().slice(11, 16)}`,
          ),
        htmlText,
      ),
      dated: fc.boolean(),
    })
    .map(
      ({ who, what, price, at, dated }) =>
        `<tr class="tm-row-selectable"><td><div class="table-cell"><div class="table-cell-value tm-value">${who}</div></div></td><td><div class="table-cell"><div class="table-cell-value tm-value">${what}</div></div></td><td><div class="table-cell"><div class="table-cell-value tm-value icon-before icon-ton">${price}</div></div></td><td><div class="table-cell"><time ${dated ? `datetime="${at}"` : 'class="short"'}>${at}</time></div></td></tr>`,
    );
  const historyPage = fc
    .tuple(
      fc.array(historyRow, { maxLength: 8 }),
      fc.option(fc.string({ maxLength: 10 })),
      fc.constantFrom('Stars', 'Duration', ''),
    )
    .map(
      ([rows, next, what]) =>
        `<table class="table tm-table"><thead><tr><th>Recipient</th><th>${what}</th><th>Price</th><th>Date</th></tr></thead><tbody>${rows.join('') || '<tr><td colspan="4"><div class="table-cell tm-table-empty">No purchases yet</div></td></tr>'}</tbody></table>${next === null ? '' : `<div class="tm-load-more" data-next-offset="${next}">Show more</div>`}`,
    );
  const ajInitPage = fc
    .record({
      state: fc.jsonValue({ maxDepth: 2 }),
      rate: fc.oneof(fc.double({ noNaN: true }).map(String), fc.string({ maxLength: 10 })),
      hash: fc.stringMatching(/^[0-9a-f]{0,20}$/),
      wallet: fc.jsonValue({ maxDepth: 1 }),
    })
    .map(
      ({ state, rate, hash, wallet }) =>
        `<html><script>ajInit({"version":1,"apiUrl":"\\/api?hash=${hash}","state":${JSON.stringify(state)},"tonRate":${rate}});Wallet.init(${JSON.stringify(wallet)});</script><div class="tm-value icon-before icon-ton">1<span class="mini-frac">.5</span></div> $${rate}<label><input name="months" value="3">x</label></html>`,
    );
  /** Cut, repeat, or splice one page into another: the shapes a changed or truncated page takes. */
  const mutated = (page: fc.Arbitrary<string>) =>
    page.chain((html) =>
      fc.oneof(
        fc.constant(html),
        fc.nat(html.length).map((n) => html.slice(0, n)),
        fc.nat(html.length).map((n) => html.slice(n)),
        fc
          .tuple(fc.nat(html.length), fc.string({ maxLength: 20 }))
          .map(([n, s]) => html.slice(0, n) + s + html.slice(n)),
        fc.integer({ min: 2, max: 400 }).map((times) => html.repeat(times)),
      ),
    );
  const anyHtml = fc.oneof(
    mutated(historyPage),
    mutated(ajInitPage),
    fc.string({ maxLength: 2_000 }),
    fc.constantFrom(
      '{'.repeat(50_000),
      '<label>'.repeat(150_000),
      `<div class="${'a '.repeat(30_000)}`,
      'ajInit('.repeat(10_000),
    ),
  );

  /**
   * Wall time of one parse: a parser that backtracks for seconds on a page is a hang (a bound, not
   * a speed figure). A megabyte of unclosed `<label>`s took parseOptionPrices about a minute
   * before its fix: kept as a regression example.
   */
  const PARSE_BOUND_MS = 5_000;

  test('HTML parsers: history pages, ajInit pages, prices and options never throw', () => {
    assertSyncProperty(
      'Fragment HTML parsers',
      fc.tuple(anyHtml, fc.constantFrom('stars' as const, 'premium' as const)),
      ([html, product]) => {
        const parsers: Array<[string, () => unknown]> = [
          [
            'parseHistoryPage',
            () => expect(['listed', 'empty', 'unrecognized']).toContain(parseHistoryPage(product, html).shape),
          ],
          [
            'parseHistoryMore',
            () =>
              expect(['listed', 'unrecognized']).toContain(
                parseHistoryMore(product, { ok: true, body: html, foot: html }, 'getPremiumHistory').shape,
              ),
          ],
          ['parseHistoryDateText', () => parseHistoryDateText(html, Date.now())],
          ['parseAjInit', () => parseAjInit(html)],
          ['parseWalletInit', () => parseWalletInit(html)],
          ['parseCurPrice', () => parseCurPrice(html)],
          ['parseOptionPrices', () => parseOptionPrices(html, 'months')],
          ['parseImgSrc', () => parseImgSrc(html)],
          ['pageLoggedIn', () => pageLoggedIn(html)],
          ['isCloudflareChallenge', () => isCloudflareChallenge(html)],
          ['extractApiHash', () => extractApiHash(html)],
          ['htmlToText', () => htmlToText(html)],
          ['unescapeHtml', () => unescapeHtml(html)],
        ];
        for (const [name, parse] of parsers) {
          const started = Date.now();
          parse();
          const elapsed = Date.now() - started;
          if (elapsed > PARSE_BOUND_MS)
            throw new Error(`${name} of a ${html.length}-character page took ${elapsed} ms`);
        }
      },
      400,
      [['<label>'.repeat(150_000), 'premium'] as [string, 'stars' | 'premium']],
    );
  });

  test('JSON answers: init, link (TON Connect transaction), business errors, amounts', () => {
    const json = fc.oneof(
      fc.dictionary(
        fc.constantFrom('req_id', 'amount', 'transaction', 'confirm_method', 'confirm_params', 'error', 'ok', 'found'),
        fc.jsonValue({ maxDepth: 3 }),
      ),
      fc.record({
        transaction: fc.record(
          {
            validUntil: fc.oneof(fc.integer(), fc.string({ maxLength: 12 }), fc.double()),
            from: fc.oneof(fc.string({ maxLength: 70 }), fc.integer()),
            messages: fc.oneof(
              fc.array(
                fc.dictionary(
                  fc.constantFrom('address', 'amount', 'payload', 'stateInit'),
                  fc.jsonValue({ maxDepth: 1 }),
                ),
                { maxLength: 3 },
              ),
              fc.jsonValue({ maxDepth: 1 }),
            ),
          },
          { requiredKeys: [] },
        ),
        confirm_method: fc.jsonValue({ maxDepth: 1 }),
        confirm_params: fc.jsonValue({ maxDepth: 2 }),
      }),
    );
    assertSyncProperty(
      'Fragment JSON parsers',
      fc.tuple(json as fc.Arbitrary<Record<string, unknown>>, fc.string({ maxLength: 30 })),
      ([answer, amount]) => {
        for (const parse of [
          () => parseInitAnswer(answer, 'initBuyStarsRequest'),
          () => parseTransaction(answer, 'getBuyStarsLink'),
          () => raiseBusinessError(answer, 'searchStarsRecipient'),
          () => parseAmountToNano(amount, 9),
        ]) {
          try {
            parse();
          } catch (error) {
            expectTyped(error, [FragmentError], answer);
          }
        }
      },
      1_000,
    );
  });
});
