/**
 * checkTonProof against proofs real wallets made (Tonkeeper-style V5R1 on testnet, V4R2 on
 * mainnet), published as the test data of github.com/WinoGarcia/TonProof.NET
 * (TonProof.Tests/Data/CheckProofRequestV5Testnet.cs, CheckProofRequestV4R2Mainnet.cs): the message
 * layout is the wallets', not just this code's own (docs/ton.md, "ton_proof").
 */
import { Address } from '@ton/core';
import { checkTonProof, type TonProof } from '../../src';

const DOMAIN = 'winogarcia.github.io';

const WALLET_PROOFS: Array<{ name: string; address: string; publicKey: string; proof: TonProof }> = [
  {
    name: 'V5R1, testnet',
    address: '0:7afd7563d8fd084d35060278320769743905983b8ea43c5b16fb6e3dc0a190dd',
    publicKey: 'c5134fcb39879c2cf81ffdc347353d031cf184538130fdd42688152088bf69ba',
    proof: {
      timestamp: 1721812530,
      domain: { lengthBytes: 20, value: DOMAIN },
      signature: '8ab+IBU83nga6aNznUNEHr3OgN1L7I2raVomWNrhEElTFI1a3VvAz4mzvQbaYiaCY+WftHZrJnSiEgnbRYojDA==',
      payload:
        'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1bmlxdWVfbmFtZSI6IjQxNDA1NzUxLTNlZjEtNDZhYi04ZDJiLTRkMjE4NWVhZjI2ZSIsIm5iZiI6MTcyMTgxMjQ4OCwiZXhwIjoxNzIxODEzMzg4LCJpYXQiOjE3MjE4MTI0ODgsImlzcyI6Iklzc3VlckZvclBheWxvYWQiLCJhdWQiOiJBdWRpZW5jZUZvclBheWxvYWQifQ.rzJ1tpq-jDp19pDwWO8ZNp8T9ZkME9CZXIppWc5FYGo',
    },
  },
  {
    name: 'V4R2, mainnet',
    address: '0:0522952c6d0846ad7f93dfb7987e5f77f02ee53290a26f9be85a50c689085932',
    publicKey: 'e635249f6b3fbaf9742ae1d09d8f6f01b6082ff9256d719006329405019f3198',
    proof: {
      timestamp: 1721827476,
      domain: { lengthBytes: 20, value: DOMAIN },
      signature: 'z05SXc3qseQ/c/Fwmp+D4+qF2QWRAbP7E8mcYwbxBTqsEcG/DQdMdUUJhYx0NQTpid38oxBDYnJ9vB0cZkd/Bw==',
      payload:
        'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1bmlxdWVfbmFtZSI6IjExMjM3N2UxLWUwYjktNGIyOC05NjJkLTRiZDAxMTFmZmY3NyIsIm5iZiI6MTcyMTgyNzA4MiwiZXhwIjoxNzIxODI3OTgyLCJpYXQiOjE3MjE4MjcwODIsImlzcyI6Iklzc3VlckZvclBheWxvYWQiLCJhdWQiOiJBdWRpZW5jZUZvclBheWxvYWQifQ.BZ6LvTKvsSPZ4H6nbwcQP3gjVgvkbYm2vPIQjJ4Gyak',
    },
  },
];

describe.each(WALLET_PROOFS)("a wallet's own proof ($name)", ({ address, publicKey, proof }) => {
  const wallet = { address: Address.parseRaw(address), publicKey: Buffer.from(publicKey, 'hex') };
  const rules = { domains: [DOMAIN], nowSeconds: proof.timestamp + 60, maxAgeSeconds: 900 };

  test('verifies', () => {
    expect(checkTonProof(proof, wallet, rules)).toBeUndefined();
  });

  test('another payload, address or key: signature', () => {
    expect(checkTonProof({ ...proof, payload: `${proof.payload}x` }, wallet, rules)).toBe('signature');
    expect(checkTonProof(proof, { ...wallet, address: Address.parseRaw(`0:${'11'.repeat(32)}`) }, rules)).toBe(
      'signature',
    );
    expect(checkTonProof(proof, { ...wallet, publicKey: Buffer.alloc(32, 7) }, rules)).toBe('signature');
  });

  test('a domain not listed, or its length misstated: domain; too old or ahead: timestamp', () => {
    expect(checkTonProof(proof, wallet, { ...rules, domains: ['shop.example'] })).toBe('domain');
    expect(checkTonProof({ ...proof, domain: { ...proof.domain, lengthBytes: 19 } }, wallet, rules)).toBe('domain');
    expect(checkTonProof(proof, wallet, { ...rules, nowSeconds: proof.timestamp + 901 })).toBe('timestamp');
    expect(checkTonProof(proof, wallet, { ...rules, nowSeconds: proof.timestamp - 61 })).toBe('timestamp');
  });
});
