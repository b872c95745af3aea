/**
 * A copy of @ton/crypto (and its tweetnacl and jssha) as published, in JavaScript: jest.setup.js
 * swaps node:crypto into the suite's own copy (useNativeTonCrypto), and a suite that checks our
 * keys and signatures against @ton/crypto must compare with the original.
 */
type TonCrypto = typeof import('@ton/crypto');

export function javascriptTonCrypto(): TonCrypto {
  let module: TonCrypto | undefined;
  jest.isolateModules(() => {
    module = jest.requireActual<TonCrypto>('@ton/crypto');
  });
  if (!module) throw new Error('@ton/crypto did not load');
  return module;
}
