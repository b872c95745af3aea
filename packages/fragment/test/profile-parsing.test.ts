/**
 * `/my/profile` badges (docs/fragment-protocol.md §19.3): read from the page's text, the linked
 * wallet's address from beside its badge; a page that names no identity or wallet is not guessed at.
 */
import { parseProfile } from '../src';

const ADDRESS = `UQ${'A'.repeat(40)}b-_c9d`;
const page = (main: string) => `<html><body><main class="tm-main">${main}</main><footer>Wallet</footer></body></html>`;

it('reads identity verified, the linked wallet and wallet verified', () => {
  expect(
    parseProfile(
      page(
        `<span class="tm-badge">Identity Verified</span><div><span>Linked Wallet</span><a href="https://tonviewer.com/${ADDRESS}">${ADDRESS}</a><span>Wallet Verified</span></div>`,
      ),
    ),
  ).toEqual({ recognised: true, identityVerified: true, linkedWallet: ADDRESS, walletVerified: true });
});

it('an account before verification: no badges, no wallet', () => {
  expect(parseProfile(page('<a href="/kyc/account">Verify your identity</a><div>No wallet connected</div>'))).toEqual({
    recognised: true,
    identityVerified: false,
    linkedWallet: undefined,
    walletVerified: false,
  });
});

it('a raw address counts as the linked wallet too', () => {
  const raw = `0:${'ab'.repeat(32)}`;
  expect(parseProfile(page(`<span>Linked Wallet</span><span>${raw}</span>`)).linkedWallet).toBe(raw);
});

it('a page without any profile marker is not recognised (only the main content is read)', () => {
  expect(parseProfile(page('<h1>Log in to continue</h1>'))).toMatchObject({
    recognised: false,
    identityVerified: false,
  });
});
