import { randomBytes } from 'node:crypto';
import { Address } from '@ton/core';
import { loadWorkerConfig } from '../src/config';
import { checkAllowListPerProduct } from '../src/doctor/allow-list-checks';

const stars = new Address(0, randomBytes(32));
const premium = new Address(0, randomBytes(32));
const configOf = (addresses: string) =>
  loadWorkerConfig({
    NODE_ENV: 'test',
    STARSGATE_SECRET_KEY: `t1:${randomBytes(32).toString('base64')}`,
    FRAGMENT_RECEIVING_ADDRESSES: addresses,
  });

test('the doctor lists, per product, where its GRAM payments and USDT jetton transfers may go', () => {
  const friendly = [stars, premium].map((a) => a.toString({ bounceable: false, urlSafe: true }));
  const results = checkAllowListPerProduct(configOf(`${stars.toString()},${premium.toRawString()}`));
  expect(results).toEqual([
    {
      item: 'allow-list stars',
      status: 'ok',
      detail: `GRAM payments and USDT jetton transfers may go to ${friendly.join(', ')}`,
    },
    {
      item: 'allow-list premium',
      status: 'ok',
      detail: `GRAM payments and USDT jetton transfers may go to ${friendly.join(', ')}`,
    },
    { item: 'allow-list gram', status: 'ok', detail: `GRAM payments may go to ${friendly.join(', ')}` },
    {
      item: 'allow-list premium_giveaway',
      status: 'ok',
      detail: `GRAM payments and USDT jetton transfers may go to ${friendly.join(', ')}`,
    },
  ]);
});

test('an empty allow-list fails every product by name', () => {
  const results = checkAllowListPerProduct(configOf(''));
  expect(results.map((r) => [r.item, r.status])).toEqual([
    ['allow-list stars', 'fail'],
    ['allow-list premium', 'fail'],
    ['allow-list gram', 'fail'],
    ['allow-list premium_giveaway', 'fail'],
  ]);
});
