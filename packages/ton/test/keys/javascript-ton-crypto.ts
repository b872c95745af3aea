/**
 * A copy of the TON libraries as published, in JavaScript (tweetnacl, jssha): jest.setup.js swaps
 * node:crypto into the suite's own copies (useNativeTonCrypto), and a suite that checks our keys,
 * signatures or hashes against @ton/crypto must compare with the original. The copies load
 * together, so @ton/core and @ton/ton here use this @ton/crypto.
 */
export interface JavascriptTonLibraries {
  crypto: typeof import('@ton/crypto');
  core: typeof import('@ton/core');
  ton: typeof import('@ton/ton');
  nacl: typeof import('tweetnacl');
}

export function javascriptTonLibraries(): JavascriptTonLibraries {
  let copies: JavascriptTonLibraries | undefined;
  jest.isolateModules(() => {
    copies = {
      crypto: jest.requireActual('@ton/crypto'),
      core: jest.requireActual('@ton/core'),
      ton: jest.requireActual('@ton/ton'),
      nacl: jest.requireActual('tweetnacl'),
    };
  });
  if (!copies) throw new Error('the TON libraries did not load');
  return copies;
}
