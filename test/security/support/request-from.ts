/**
 * One HTTP request from a chosen loopback source address (127.0.0.0/8 is all this machine's), so
 * each address is its own client to the gateway's per-client limits.
 */
import { request } from 'node:http';

export interface Answer {
  status: number;
  body: { code?: string; retry_after?: number };
  text: string;
}

export function requestFrom(
  url: string,
  from: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: options.method ?? 'GET', localAddress: from, headers: options.headers ?? {} },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => {
          let body: Answer['body'] = {};
          try {
            body = JSON.parse(text) as Answer['body'];
          } catch {
            // not JSON: `text` has it
          }
          resolve({ status: res.statusCode ?? 0, body, text });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
