/**
 * Fragment's business error texts, exactly as sent (HTML-escaped where Fragment escapes):
 * docs/fragment-protocol.md §11. A product's own texts are in its pack (products/).
 */
export const FragmentErrors = {
  notFound: 'No Telegram users found.',
  notAUser: 'Please enter a username assigned to a user.',
  priceChanged: 'Price was changed. Please try again.',
  accessDenied: 'Access denied',
  badRequest: 'Bad request',
  unknownMethod: 'Unknown method',
  // Protocol reference, "Evidence, 2026-11-28": the giveaway's search for anything but a channel.
  notAChannel: 'No Telegram channels found',
  // Texts below were never captured from Fragment (docs/fragment-protocol.md §16); the simulator's choice.
  invalidMonths: 'Please choose a subscription period.',
  invalidWinners: (max: number) => `Please enter a number of winners between 1 and ${max.toLocaleString('en-US')}.`,
  invalidAmount: 'Amount is invalid',
  requestNotFound: 'Request not found. Please try again.',
  requestExpired: 'This request has expired. Please try again.',
  requestProcessed: 'This request has already been paid.',
  invalidTransaction: 'Invalid transaction. Please try again.',
  verifyFailed: 'Verification failed. Please try again.',
} as const;
