import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhookSignature } from '@starsgate/domain';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  raw: string;
  body: { id: string; type: string; created_at: string; sequence: number; data: Record<string, unknown> };
  /** How this request was answered. */
  answer: Answer;
}

/** How the receiver answers the next requests: an HTTP status, or never (a hang past the sender's timeout). */
export type Answer = number | 'hang';

/**
 * A local webhook receiver on 127.0.0.1: records every request with its raw body and answers
 * from a script per recipient (`answerFor`), 200 otherwise.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly scripts: Array<{ username: string; type: string; answers: Answer[] }> = [];
  private readonly hanging = new Set<() => void>();

  private readonly server: Server;

  private constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => this.answer(Buffer.concat(chunks).toString('utf8'), req.headers, res));
    });
  }

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    receiver.server.listen(0, '127.0.0.1');
    await once(receiver.server, 'listening');
    return receiver;
  }

  private answer(raw: string, headers: IncomingHttpHeaders, res: ServerResponse): void {
    const body = JSON.parse(raw) as ReceivedWebhook['body'];
    const script = this.scripts.find((entry) => entry.username === body.data.username && entry.type === body.type);
    const answer = script?.answers.shift() ?? 200;
    this.received.push({ headers, raw, body, answer });
    if (answer === 'hang') {
      this.hanging.add(() => res.destroy());
      return;
    }
    res.writeHead(answer, { 'Content-Type': 'text/plain' }).end('ok');
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** How to answer the next events of this type of purchases for this recipient (then 200). */
  answerFor(username: string, type: string, ...answers: Answer[]): void {
    this.scripts.push({ username, type, answers });
  }

  /** Requests whose signature one of `secrets` verifies (each secret must verify on its own). */
  verifiedBy(request: ReceivedWebhook, secret: string): boolean {
    return verifyWebhookSignature(String(request.headers['starsgate-signature']), request.raw, secret);
  }

  forPurchase(purchaseId: string): ReceivedWebhook[] {
    return this.received.filter((request) => request.body.data.purchase_id === purchaseId);
  }

  async waitFor(predicate: () => boolean, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error(`webhook receiver: condition not met within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async close(): Promise<void> {
    for (const release of this.hanging) release();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
