import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhookSignature } from '@starsgate/domain';

/** A webhook event whose signature checked out; `orderId` is its purchase_id or checkout_id. */
export interface VerifiedWebhookEvent {
  id: string;
  type: string;
  sequence: number;
  orderId: string | undefined;
}

/**
 * The order system's webhook endpoint in a whole-system run: checks each request's
 * `Starsgate-Signature` against the endpoint's `secret` (400 when it does not verify), answers 200
 * otherwise and hands the event to `onEvent`. Delivery is at least once: an event may come again.
 */
export class WebhookEndpoint {
  secret = '';
  requests = 0;
  badSignatures = 0;

  private constructor(private readonly server: Server) {}

  static async start(onEvent: (event: VerifiedWebhookEvent) => void): Promise<WebhookEndpoint> {
    const server = createServer();
    const endpoint = new WebhookEndpoint(server);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        endpoint.requests += 1;
        const raw = Buffer.concat(chunks).toString('utf8');
        const signature = String(req.headers['starsgate-signature'] ?? '');
        if (!endpoint.secret || !verifyWebhookSignature(signature, raw, endpoint.secret)) {
          endpoint.badSignatures += 1;
          res.writeHead(400).end();
          return;
        }
        const body = JSON.parse(raw) as { id: string; type: string; sequence: number; data: Record<string, unknown> };
        const orderId = body.data['purchase_id'] ?? body.data['checkout_id'];
        onEvent({
          id: body.id,
          type: body.type,
          sequence: body.sequence,
          orderId: typeof orderId === 'string' ? orderId : undefined,
        });
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return endpoint;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks/starsgate`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
