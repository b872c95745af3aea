import { query, type AdminClient } from '../admin-client';
import { fields, pageText, table, type Page, type Row } from '../output';
import type { CommandResult, Options } from './command';

const ENDPOINT_COLUMNS = ['id', 'url', 'events', 'description', 'created_at'];
const DELIVERY_COLUMNS = [
  'id',
  'event_type',
  'purchase_id',
  'state',
  'attempts',
  'last_status',
  'last_error',
  'created_at',
];

function withSecret(endpoint: Row): string {
  return `${fields(endpoint, ['id', 'url', 'events', 'secret'])}\n\nThe secret is shown only now: store it with the receiver.`;
}

export async function addWebhook(client: AdminClient, url: string, options: Options): Promise<CommandResult> {
  const endpoint = await client.call<Row>('POST', '/admin/api/webhook-endpoints', {
    url,
    ...(options.description ? { description: options.description } : {}),
    ...(options.events ? { events: options.events.split(',').map((event) => event.trim()) } : {}),
  });
  return { json: endpoint, text: withSecret(endpoint) };
}

export async function listWebhooks(client: AdminClient): Promise<CommandResult> {
  const list = await client.call<{ data: Row[] }>('GET', '/admin/api/webhook-endpoints');
  return { json: list, text: table(list.data, ENDPOINT_COLUMNS) };
}

export async function removeWebhook(client: AdminClient, id: string): Promise<CommandResult> {
  await client.call('DELETE', `/admin/api/webhook-endpoints/${encodeURIComponent(id)}`);
  return { json: { id, deleted: true }, text: `deleted ${id}` };
}

export async function rotateWebhook(client: AdminClient, id: string): Promise<CommandResult> {
  const endpoint = await client.call<Row>(
    'POST',
    `/admin/api/webhook-endpoints/${encodeURIComponent(id)}/rotate-secret`,
  );
  return {
    json: endpoint,
    text: `${withSecret(endpoint)}\nThe previous secret keeps signing for 24 hours.`,
  };
}

export async function listDeliveries(client: AdminClient, options: Options): Promise<CommandResult> {
  const page = await client.call<Page>(
    'GET',
    `/admin/api/webhook-deliveries${query({
      endpoint_id: options.endpoint,
      state: options.state,
      limit: options.limit,
      cursor: options.cursor,
    })}`,
  );
  return { json: page, text: pageText(page, DELIVERY_COLUMNS) };
}

export async function retryDelivery(client: AdminClient, id: string): Promise<CommandResult> {
  const delivery = await client.call<Row>('POST', `/admin/api/webhook-deliveries/${encodeURIComponent(id)}/retry`);
  return { json: delivery, text: fields(delivery, ['id', 'state', 'attempts', 'next_attempt_at']) };
}
