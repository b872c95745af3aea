/**
 * What the driver itself asks of the local chain through the sandbox's toncenter API (with the
 * same faults the service sees, so every call is retried): wallet state, broadcasts, faucet.
 */
import type { HttpClient } from './http-client';

export class ChainAccess {
  constructor(
    private readonly toncenter: HttpClient,
    private readonly sandboxUrl: string,
  ) {}

  /** Seqno and state of a wallet (0 / uninit when not deployed). */
  async walletState(address: string): Promise<{ seqno: number; active: boolean }> {
    const answer = await this.toncenter.request(
      'GET',
      `/api/v2/getWalletInformation?address=${encodeURIComponent(address)}`,
    );
    if (answer.status !== 200) throw new Error(`getWalletInformation: HTTP ${answer.status}`);
    const result = answer.body['result'] as { seqno?: number; account_state?: string };
    return { seqno: result.seqno ?? 0, active: result.account_state === 'active' };
  }

  async sendBoc(boc: string): Promise<void> {
    const answer = await this.toncenter.request('POST', '/api/v2/sendBoc', { boc });
    // A re-broadcast of an external already included is refused: the chain has it, that is fine.
    if (answer.status !== 200 && answer.status !== 400 && answer.status !== 500)
      throw new Error(`sendBoc: HTTP ${answer.status}`);
  }

  /** Funds through the sandbox faucet (real chain messages; answers once included). */
  async fund(address: string, gram: string, usdt: string): Promise<void> {
    const response = await fetch(`${this.sandboxUrl}/faucet`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ address, gram, usdt }),
    });
    if (!response.ok) throw new Error(`faucet: HTTP ${response.status} ${await response.text()}`);
  }
}
