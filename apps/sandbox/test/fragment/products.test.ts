import { allPacks, productPack, simProducts } from '../../src/fragment/products/registry';

/** The product packs (src/fragment/products): lookups that throw, and no pack sharing a page or method. */
describe('product packs', () => {
  it('looks products up and throws on one the simulator does not sell', () => {
    expect(simProducts()).toEqual(['stars', 'premium', 'gram', 'premium_giveaway']);
    for (const product of simProducts()) expect(productPack(product).product).toBe(product);
    expect(() => productPack('stars_giveaway')).toThrow('unknown product stars_giveaway');
    expect(() => productPack('toString')).toThrow('unknown product toString');
  });

  it('gives every page path, page kind and Fragment method to one product only', () => {
    const paths = allPacks().flatMap((pack) => pack.pages.map((page) => page.path));
    const kinds = allPacks().flatMap((pack) => pack.pages.map((page) => page.kind));
    const methods = allPacks().flatMap((pack) => Object.keys(pack.methods));
    expect(new Set(paths).size).toBe(paths.length);
    expect(new Set(kinds).size).toBe(kinds.length);
    expect(new Set(methods).size).toBe(methods.length);
    expect(paths).toContain('/premium/giveaway');
  });

  it('lists each product in a history table whose owner names its type', () => {
    for (const pack of allPacks()) {
      const owner = productPack(pack.history.table);
      expect(owner.history.table).toBe(owner.product);
      expect(owner.history.type).toBeDefined();
      expect(owner.history.headerHtml).toContain('<th>Recipient</th>');
    }
  });

  // The packs import the shared flow, which looks packs up: whichever module loads first, the
  // registry must hold every pack once asked.
  it.each([
    'products/stars',
    'products/premium',
    'products/gram',
    'products/premium-giveaway',
    'methods/init',
    'comment-payload',
    'pages',
    'history-html',
    'sessions',
    'api-router',
  ])('holds every pack when %s loads first', (first) => {
    jest.isolateModules(() => {
      jest.requireActual(`../../src/fragment/${first}`);
      const registry: typeof import('../../src/fragment/products/registry') = jest.requireActual(
        '../../src/fragment/products/registry',
      );
      expect(registry.allPacks().map((pack) => pack.product)).toEqual(['stars', 'premium', 'gram', 'premium_giveaway']);
      expect(registry.allPacks().every((pack) => Object.keys(pack.methods).length > 0)).toBe(true);
    });
  });
});
