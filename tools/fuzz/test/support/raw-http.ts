/**
 * Raw HTTP/1.1 over a TCP socket: the fuzzer sends exactly the bytes it generated (wrong
 * Content-Length, invalid UTF-8, duplicate keys, odd headers), which supertest and fetch would
 * normalise or refuse to send. One request per connection (`Connection: close`).
 */
import { connect } from 'node:net';

/** No answer within this long is a hang: a per-request bound, not a speed assertion. */
export const ANSWER_TIMEOUT_MS = 15_000;

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  text: string;
}

export type RawOutcome =
  | { kind: 'answered'; response: RawResponse }
  | { kind: 'timeout' }
  /** The server closed the connection without a complete answer. */
  | { kind: 'closed'; received: string };

export interface RawRequestSpec {
  method: string;
  path: string;
  /** Header lines sent as given, in order (names may repeat). */
  headers: Array<[string, string]>;
  body?: Buffer;
  /** Added unless a Content-Length or Transfer-Encoding header is given (the fuzzer's own can lie). */
  autoContentLength?: boolean;
}

export function requestBytes(port: number, spec: RawRequestSpec): Buffer {
  const body = spec.body ?? Buffer.alloc(0);
  const lines = [`${spec.method} ${spec.path} HTTP/1.1`, `Host: 127.0.0.1:${port}`, 'Connection: close'];
  const names = new Set(spec.headers.map(([name]) => name.toLowerCase()));
  for (const [name, value] of spec.headers) lines.push(`${name}: ${value}`);
  if (
    spec.autoContentLength !== false &&
    !names.has('content-length') &&
    !names.has('transfer-encoding') &&
    (body.length > 0 || ['POST', 'PUT', 'PATCH'].includes(spec.method))
  )
    lines.push(`Content-Length: ${body.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
}

function dechunk(data: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', offset);
    if (lineEnd < 0) return undefined;
    const size = parseInt(data.subarray(offset, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size)) return undefined;
    if (size === 0) return Buffer.concat(parts);
    const start = lineEnd + 2;
    if (data.length < start + size + 2) return undefined;
    parts.push(data.subarray(start, start + size));
    offset = start + size + 2;
  }
}

/** The first complete response in `data`, or undefined while more bytes are needed. */
function parseResponse(data: Buffer, ended: boolean, head: boolean): RawResponse | undefined {
  const headerEnd = data.indexOf('\r\n\r\n');
  if (headerEnd < 0) return undefined;
  const [statusLine = '', ...headerLines] = data.subarray(0, headerEnd).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  if (!Number.isInteger(status)) return undefined;
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = data.subarray(headerEnd + 4);
  let body: Buffer | undefined;
  if (head) body = Buffer.alloc(0);
  else if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length']);
    body = rest.length >= length ? rest.subarray(0, length) : undefined;
  } else if ((headers['transfer-encoding'] ?? '').toLowerCase().includes('chunked')) body = dechunk(rest);
  else if (status === 204 || status === 304) body = Buffer.alloc(0);
  else body = ended ? rest : undefined;
  return body === undefined ? undefined : { status, headers, body, text: body.toString('utf8') };
}

/**
 * Sends `bytes` and reads the first answer. `halfClose` ends our side after sending (the server
 * then knows no more body bytes will come, as when a client dies mid-body).
 */
export function sendRaw(
  port: number,
  bytes: Buffer,
  options: { halfClose?: boolean; timeoutMs?: number; head?: boolean } = {},
): Promise<RawOutcome> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (outcome: RawOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish({ kind: 'timeout' }), options.timeoutMs ?? ANSWER_TIMEOUT_MS);
    const tryParse = (ended: boolean) => {
      const response = parseResponse(Buffer.concat(chunks), ended, options.head === true);
      if (response) finish({ kind: 'answered', response });
      else if (ended) finish({ kind: 'closed', received: Buffer.concat(chunks).toString('latin1').slice(0, 200) });
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      tryParse(false);
    });
    socket.on('end', () => tryParse(true));
    // A reset after the answer was sent in full (the server closing early) still counts as answered.
    socket.on('error', () => tryParse(true));
    socket.on('close', () => tryParse(true));
    socket.write(bytes, () => {
      if (options.halfClose) socket.end();
    });
  });
}

export function rawRequest(port: number, spec: RawRequestSpec, options: { halfClose?: boolean; head?: boolean } = {}) {
  return sendRaw(port, requestBytes(port, spec), options);
}

/** A JSON request as a well-behaved client sends it. */
export function jsonRequest(
  port: number,
  method: string,
  path: string,
  body?: unknown,
  headers: Array<[string, string]> = [],
): Promise<RawOutcome> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body), 'utf8');
  return rawRequest(port, {
    method,
    path,
    headers: [...(payload ? ([['Content-Type', 'application/json']] as Array<[string, string]>) : []), ...headers],
    body: payload,
  });
}
