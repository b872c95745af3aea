/**
 * Values for the fields a schema only calls "string": real seeds of every accepted format, real
 * addresses in every form, and near misses of each (a word swapped, a checksum broken, a byte
 * short), so the seed, address and BOC parsers behind validation are fuzzed through the gateway.
 */
import fc from 'fast-check';
import { Address, beginCell } from '@ton/core';
import { mnemonicWordList as wordlist } from '@ton/crypto';
import type { DemoWallet } from '@starsgate/sandbox';
import type { Overrides } from './schema-arbitraries';

import { BIP39_PHRASE } from '@starsgate/gateway/testing';

export { BIP39_PHRASE };

const word = fc.constantFrom(...wordlist);

/** Near misses of a seed: what a person pastes wrongly. */
export function seedMutations(seed: string): fc.Arbitrary<string> {
  const words = seed.split(' ');
  return fc.oneof(
    fc.nat(words.length - 1).chain((i) => word.map((w) => words.map((x, j) => (j === i ? w : x)).join(' '))),
    fc.nat(words.length - 1).map((i) => words.filter((_, j) => j !== i).join(' ')),
    word.map((w) => `${seed} ${w}`),
    fc.constantFrom(
      seed.toUpperCase(),
      `  ${seed.replace(/ /g, '\t ')}\n`,
      seed.replace(/ /g, '  '),
      seed.replace(/ /g, ','),
    ),
    fc
      .nat(seed.length - 1)
      .chain((i) => fc.string({ minLength: 1, maxLength: 1 }).map((c) => seed.slice(0, i) + c + seed.slice(i + 1))),
  );
}

export function seedArbitrary(wallets: DemoWallet[]): fc.Arbitrary<string> {
  const real = [BIP39_PHRASE, ...wallets.map((wallet) => wallet.seed)];
  return fc.oneof(
    { arbitrary: fc.constantFrom(...real), weight: 4 },
    { arbitrary: fc.constantFrom(...real).chain(seedMutations), weight: 3 },
    {
      arbitrary: fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('base64')),
      weight: 2,
    },
    {
      arbitrary: fc
        .uint8Array({ minLength: 0, maxLength: 48 })
        .chain((b) =>
          fc.constantFrom(
            Buffer.from(b).toString('base64'),
            Buffer.from(b).toString('base64url'),
            Buffer.from(b).toString('hex'),
          ),
        ),
      weight: 1,
    },
    { arbitrary: fc.array(word, { minLength: 1, maxLength: 30 }).map((w) => w.join(' ')), weight: 2 },
    { arbitrary: fc.string({ minLength: 1, maxLength: 300 }), weight: 1 },
  );
}

/** Every spelling of an address: friendly (bounceable, not, url-safe or not, testnet flag) and raw. */
export function addressForms(address: Address): string[] {
  const forms: string[] = [address.toRawString(), address.toRawString().toUpperCase()];
  for (const bounceable of [true, false])
    for (const urlSafe of [true, false])
      for (const testOnly of [true, false]) forms.push(address.toString({ bounceable, urlSafe, testOnly }));
  return forms;
}

export function addressArbitrary(known: Address[]): fc.Arbitrary<string> {
  const random = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((hash) => new Address(0, Buffer.from(hash)));
  const anyAddress = fc.oneof(fc.constantFrom(...known), random);
  const wellFormed = anyAddress.chain((address) => fc.constantFrom(...addressForms(address)));
  const mainnetKnown = fc
    .constantFrom(...known)
    .chain((address) =>
      fc.constantFrom(
        address.toRawString(),
        address.toString({ bounceable: false }),
        address.toString({ bounceable: true }),
      ),
    );
  return fc.oneof(
    { arbitrary: mainnetKnown, weight: 8 },
    { arbitrary: wellFormed, weight: 3 },
    {
      arbitrary: wellFormed.chain((text) =>
        fc
          .nat(text.length - 1)
          .chain((i) =>
            fc
              .constantFrom('A', '_', '-', '+', '/', '0', ':', ' ')
              .map((c) => text.slice(0, i) + c + text.slice(i + 1)),
          ),
      ),
      weight: 3,
    },
    {
      arbitrary: fc
        .tuple(fc.constantFrom('-1', '1', '255', '-128', '00', '+0'), fc.uint8Array({ minLength: 32, maxLength: 32 }))
        .map(([wc, hash]) => `${wc}:${Buffer.from(hash).toString('hex')}`),
      weight: 1,
    },
    { arbitrary: fc.string({ minLength: 1, maxLength: 100 }), weight: 1 },
  );
}

/** Base64 BOCs: real cells, truncated or bit-flipped ones, and bytes that are no BOC at all. */
export function bocArbitrary(real: string[] = []): fc.Arbitrary<string> {
  const cellBoc = fc
    .tuple(fc.uint8Array({ minLength: 0, maxLength: 127 }), fc.nat(7))
    .map(([bytes, tail]) =>
      beginCell().storeBuffer(Buffer.from(bytes)).storeUint(0, tail).endCell().toBoc().toString('base64'),
    );
  const base = real.length > 0 ? fc.oneof(fc.constantFrom(...real), cellBoc) : cellBoc;
  const mutated = base.chain((boc) => {
    const bytes = Buffer.from(boc, 'base64');
    return fc.oneof(
      fc.nat(Math.max(0, bytes.length - 1)).map((n) => bytes.subarray(0, n).toString('base64')),
      fc.tuple(fc.nat(Math.max(0, bytes.length - 1)), fc.integer({ min: 1, max: 255 })).map(([i, flip]) => {
        const copy = Buffer.from(bytes);
        if (copy.length > 0) copy[i] = copy[i]! ^ flip;
        return copy.toString('base64');
      }),
      fc.constantFrom(boc.replace(/=+$/, ''), Buffer.from(bytes).toString('base64url'), `${boc}AAAA`, boc.slice(1)),
    );
  });
  return fc.oneof(
    { arbitrary: base, weight: 2 },
    { arbitrary: mutated, weight: 5 },
    { arbitrary: fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('base64')), weight: 2 },
    { arbitrary: fc.constantFrom('te6c', 'te6cckEBAQEAAgAAAEysuc0=', '====', '\u0000', 'a'.repeat(89_999)), weight: 1 },
  );
}

const DEMO_USERNAMES = ['@alice', '@bob', '@carol', '@premium_pat', '@helper_bot', '@news_channel', '@frozen_fay'];

/** Overrides for every order-shaped body: usernames of the simulator, amounts that fit a product. */
export function orderOverrides(wallets: DemoWallet[]): Overrides {
  const addresses = wallets.map((wallet) => Address.parse(wallet.address));
  return {
    username: fc.oneof(fc.constantFrom(...DEMO_USERNAMES), fc.stringMatching(/^@[A-Za-z0-9_]{1,32}$/)),
    amount: fc.oneof(fc.constantFrom(3, 6, 12, 50, 1_000_000), fc.integer({ min: 50, max: 1_000_000 })),
    seed: seedArbitrary(wallets),
    wallet_address: addressArbitrary(addresses),
    payer_address: addressArbitrary(addresses),
    url: fc.oneof(
      fc.webUrl({ validSchemes: ['https'], withQueryParameters: true, withFragments: true }),
      fc.webUrl({ validSchemes: ['http', 'ftp', 'javascript', 'file'] }),
      fc.constantFrom(
        'http://127.0.0.1:9/hook',
        'http://[::1]/x',
        'http://localhost./x',
        'https://user:pw@h.example/',
        'https://h.example:99999/',
      ),
      fc.string({ minLength: 1, maxLength: 80 }),
    ),
    cursor: fc.oneof(
      fc
        .tuple(fc.bigInt({ min: 0n, max: 10n ** 18n - 1n }), fc.uuid())
        .map(([micros, id]) => Buffer.from(`${micros}.${id}`, 'utf8').toString('base64url')),
      fc.string({ minLength: 1, maxLength: 200 }),
    ),
    idempotency_key: fc.oneof(
      fc.uuid(),
      fc.stringMatching(/^[\x20-\x7E]{1,128}$/),
      // One key drawn again and again: the same payer's later orders differ, so they are
      // IDEMPOTENCY_KEY_REUSED; another payer's are orders of their own (keys are scoped to the payer).
      fc.constant('fuzz-reused-key'),
    ),
  };
}

/** Premium takes 3, 6 or 12 months: an amount drawn for stars is folded onto one of them. */
export function fitAmountToProduct<T>(body: T): T {
  const order = body as { product?: unknown; amount?: unknown };
  if (typeof order.amount === 'string' && /^\d+$/.test(order.amount)) {
    order.amount = Number(order.amount);
    fitAmountToProduct(order);
    order.amount = String(order.amount);
    return body;
  }
  if (order.product === 'premium' && typeof order.amount === 'number' && ![3, 6, 12].includes(order.amount))
    order.amount = [3, 6, 12][Math.abs(order.amount) % 3];
  if (order.product === 'stars' && typeof order.amount === 'number' && order.amount < 50)
    order.amount = 50 + order.amount;
  return body;
}
