/** The row was claimed or changed by someone else: stop without side effects. */
export class LeaseLostError extends Error {
  constructor(purchaseId: string) {
    super(`lease on purchase ${purchaseId} was lost`);
    this.name = 'LeaseLostError';
  }
}
