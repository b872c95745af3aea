import type { Address } from '@ton/core';
import { escapeHtml } from './html';

/**
 * `/my/profile` of a logged-in account (docs/fragment-protocol.md §19.3): the badges public clients
 * read ("Identity Verified", "Linked Wallet", "Wallet Verified", S1qwy python `parse_profile`).
 * Fragment's exact markup is not captured; the badges' texts are what clients match.
 */
export function profileHtml(options: { verified: boolean; linkedWallet: Address | undefined }): string {
  const { verified, linkedWallet } = options;
  const identity = verified
    ? '<span class="tm-badge tm-badge-verified">Identity Verified</span>'
    : '<a class="tm-badge tm-badge-unverified" href="/kyc/account">Verify your identity</a>';
  const wallet =
    linkedWallet === undefined
      ? '<div class="tm-profile-wallet tm-profile-wallet-empty">No wallet connected</div>'
      : `<div class="tm-profile-wallet"><span class="tm-badge">Linked Wallet</span><a class="tm-wallet-address" href="https://tonviewer.com/${escapeHtml(
          linkedWallet.toString({ bounceable: false }),
        )}">${escapeHtml(linkedWallet.toString({ bounceable: false }))}</a>${
          verified ? '<span class="tm-badge tm-badge-verified">Wallet Verified</span>' : ''
        }</div>`;
  return `<section class="tm-section tm-profile"><h2 class="tm-section-header">My Profile</h2><div class="tm-profile-badges">${identity}</div>${wallet}</section>`;
}
