import type { Address } from '@ton/core';

/** The sandbox's faucet: real chain messages, answered once included in a block. */
export class Faucet {
  constructor(private readonly sandboxUrl: string) {}

  async fund(address: Address | string, amounts: { gram?: string; usdt?: string }): Promise<void> {
    const response = await fetch(`${this.sandboxUrl}/faucet`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ address: address.toString(), ...amounts }),
    });
    if (!response.ok) throw new Error(`faucet: ${response.status} ${await response.text()}`);
  }
}
