/**
 * Attack 27 (docs/security.md): `TRUST_PROXY=true` is refused (attack 2) because it trusts every
 * hop, but `0.0.0.0/0` and `::/0` say the same and were accepted. A range holding every address of
 * a family (IPv4-mapped IPv6 included) is now refused with the same advice, for the operator
 * listener's `ADMIN_TRUST_PROXY` too; a proxy's own range still passes.
 */
import { loadGatewayConfig } from '@starsgate/gateway';

describe('TRUST_PROXY naming every address', () => {
  it.each(['0.0.0.0/0', '::/0', '10.0.0.1, ::/0', '::ffff:0:0/96', '::ffff:0.0.0.0/96', '0.0.0.0/0,10.0.0.0/8'])(
    'refuses %s as it refuses true',
    (value) => {
      expect(() => loadGatewayConfig({ TRUST_PROXY: value })).toThrow(
        /TRUST_PROXY=.* trusts every address, as true would/,
      );
      expect(() => loadGatewayConfig({ ADMIN_TRUST_PROXY: value })).toThrow(
        /ADMIN_TRUST_PROXY=.* trusts every address, as true would/,
      );
    },
  );

  it('still takes the proxies’ own ranges, however wide a private network is', () => {
    expect(loadGatewayConfig({ TRUST_PROXY: '10.0.0.0/8,fd00::/8,0.0.0.0/32' }).trustProxy).toEqual([
      '10.0.0.0/8',
      'fd00::/8',
      '0.0.0.0/32',
    ]);
  });
});
