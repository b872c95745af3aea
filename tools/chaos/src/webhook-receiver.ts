/**
 * The order system's webhook endpoint (@starsgate/stack's WebhookEndpoint), keeping every verified
 * event by id for the check that each status change was delivered.
 */
import { WebhookEndpoint, type VerifiedWebhookEvent } from '@starsgate/stack';

export class WebhookReceiver {
  private constructor(
    private readonly endpoint: WebhookEndpoint,
    readonly events: Map<string, VerifiedWebhookEvent>,
  ) {}

  static async start(): Promise<WebhookReceiver> {
    const events = new Map<string, VerifiedWebhookEvent>();
    return new WebhookReceiver(await WebhookEndpoint.start((event) => events.set(event.id, event)), events);
  }

  get url(): string {
    return this.endpoint.url;
  }

  set secret(secret: string) {
    this.endpoint.secret = secret;
  }

  get requests(): number {
    return this.endpoint.requests;
  }

  get badSignatures(): number {
    return this.endpoint.badSignatures;
  }

  /** `orderId:status` of every verified event received. */
  statusesSeen(): Set<string> {
    const seen = new Set<string>();
    for (const event of this.events.values()) seen.add(`${event.orderId ?? ''}:${event.type.split('.')[1]}`);
    return seen;
  }

  close(): Promise<void> {
    return this.endpoint.close();
  }
}
