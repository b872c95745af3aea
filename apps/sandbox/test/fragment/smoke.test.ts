import { createHarness, type Harness, loggedInClient } from './harness';

describe('smoke', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => h.close());

  it('runs a stars flow up to the link', async () => {
    const c = await loggedInClient(h);
    expect(c.hash).toMatch(/^[0-9a-f]{18}$/);
    const s = await c.api('searchStarsRecipient', { query: '@alice', quantity: '' });
    expect(s.ok).toBe(true);
    await c.api('updateStarsBuyState', { mode: 'new', lv: 'false', dh: '1' });
    const init = await c.api('initBuyStarsRequest', { recipient: s.found.recipient, quantity: 50, payment_method: 'ton' });
    expect(init.amount).toBe('0.4412');
    const link = await c.api('getBuyStarsLink', { id: init.req_id, show_sender: 0, transaction: 1, account: JSON.stringify({ address: '0:' + '11'.repeat(32), chain: '-239' }), device: '{}' });
    expect(link.ok).toBe(true);
  });
});
