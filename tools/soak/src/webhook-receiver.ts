import { WebhookEndpoint } from '@starsgate/stack';

/**
 * The order system's webhook endpoint (@starsgate/stack's WebhookEndpoint), keeping only which event
 * types arrived for which order (not the bodies: a long run must not grow the driver's memory by
 * more than a few bytes an event).
 */
export class SoakWebhookReceiver {
  /** Same event id received again (at-least-once delivery repeats). */
  repeats = 0;
  private readonly seen = new Set<string>();
  private readonly typesByOrder = new Map<string, Set<string>>();
  private endpoint!: WebhookEndpoint;

  static async start(): Promise<SoakWebhookReceiver> {
    const receiver = new SoakWebhookReceiver();
    receiver.endpoint = await WebhookEndpoint.start((event) => {
      if (receiver.seen.has(event.id)) {
        receiver.repeats += 1;
        return;
      }
      receiver.seen.add(event.id);
      if (!event.orderId) return;
      let types = receiver.typesByOrder.get(event.orderId);
      if (!types) receiver.typesByOrder.set(event.orderId, (types = new Set()));
      types.add(event.type);
    });
    return receiver;
  }

  get url(): string {
    return this.endpoint.url;
  }

  set secret(secret: string) {
    this.endpoint.secret = secret;
  }

  /** Webhook requests received, verified or not. */
  get deliveries(): number {
    return this.endpoint.requests;
  }

  get badSignatures(): number {
    return this.endpoint.badSignatures;
  }

  /** Whether the event of this order reaching `status` arrived (`purchase.<status>` or `checkout.<status>`). */
  received(id: string, kind: 'purchase' | 'checkout', status: string): boolean {
    return this.typesByOrder.get(id)?.has(`${kind}.${status}`) ?? false;
  }

  close(): Promise<void> {
    return this.endpoint.close();
  }
}
