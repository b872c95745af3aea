/**
 * `/my/profile` read for the doctor (docs/fragment-protocol.md §19.3): the badges public clients
 * match ("Identity Verified", "Linked Wallet", "Wallet Verified") and the linked wallet's address.
 * The page's markup is not captured publicly, so this reads the badges' texts, not their tags, and
 * says `recognised: false` rather than guessing when the page names none of them.
 */
import { htmlToText } from './html-parsing';

export interface AccountProfile {
  /** The page names an identity or a wallet at all: the other fields mean something. */
  recognised: boolean;
  identityVerified: boolean;
  /** The linked wallet's address as the page writes it (friendly or raw), if it shows one. */
  linkedWallet: string | undefined;
  walletVerified: boolean;
}

const FRIENDLY_ADDRESS = /(?<![\w-])[EU]Q[\w-]{46}(?![\w-])/;
const RAW_ADDRESS = /(?<![\w-])-?\d:[0-9a-f]{64}(?![\w-])/i;

export function parseProfile(html: string): AccountProfile {
  const main = /<main\b[\s\S]*?<\/main>/i.exec(html)?.[0] ?? html;
  // Each tag a word break: badges sit in adjacent elements ("Linked Wallet" beside the address).
  const text = htmlToText(main.replace(/</g, ' <'));
  const identityVerified = /identity verified/i.test(text);
  const walletVerified = /wallet verified/i.test(text);
  const linkedWallet = FRIENDLY_ADDRESS.exec(text)?.[0] ?? RAW_ADDRESS.exec(text)?.[0];
  return {
    recognised: /identity|wallet/i.test(text),
    identityVerified,
    linkedWallet,
    walletVerified,
  };
}
