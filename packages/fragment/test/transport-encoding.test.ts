/**
 * Content-Encoding: the transport asks for compressed answers as a browser does and decodes them,
 * including Cloudflare's compressed error pages. A plain node:http server plays fragment.com's
 * edge here (the simulator answers uncompressed).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { FragmentError } from '../src';
import { CookieJar } from '../src/session';
import { silentLogger, Transport } from '../src/transport';

const ENCODERS: Record<string, (data: Buffer) => Buffer> = {
  gzip: gzipSync,
  deflate: deflateSync,
  br: brotliCompressSync,
};

let server: Server;
let baseUrl: string;
let lastHeaders: IncomingHttpHeaders = {};
let answer: { status: number; encoding: string; contentType: string; body: string } = {
  status: 200,
  encoding: 'gzip',
  contentType: 'application/json',
  body: '{}',
};

beforeAll(async () => {
  server = createServer((req, res) => {
    lastHeaders = req.headers;
    req.resume();
    req.on('end', () => {
      const encode = ENCODERS[answer.encoding];
      res.writeHead(answer.status, {
        'content-type': answer.contentType,
        ...(encode ? { 'content-encoding': answer.encoding } : {}),
        'set-cookie': ['stel_ssid=rotated; Path=/'],
      });
      res.end(encode ? encode(Buffer.from(answer.body)) : answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function transport(jar = new CookieJar('stel_ssid=first; stel_token=t')): Transport {
  return new Transport({
    baseUrl,
    jar,
    userAgent: 'test-agent',
    timeoutMs: 2_000,
    minIntervalMs: 0,
    logger: silentLogger,
  });
}

describe('compressed answers', () => {
  it.each(['gzip', 'deflate', 'br', 'identity'])(
    'decodes a %s JSON answer and sends Accept-Encoding',
    async (encoding) => {
      answer = {
        status: 200,
        encoding,
        contentType: 'application/json',
        body: JSON.stringify({ ok: true, req_id: 'r-1', note: 'é✓' }),
      };
      const jar = new CookieJar('stel_ssid=first; stel_token=t');
      const json = await transport(jar).postApi('hash1', 'searchStarsRecipient', 'query=alice', '/stars/buy', false);
      expect(json).toEqual({ ok: true, req_id: 'r-1', note: 'é✓' });
      expect(lastHeaders['accept-encoding']).toBe('gzip, deflate, br');
      expect(lastHeaders.cookie).toBe('stel_ssid=first; stel_token=t');
      expect(jar.get('stel_ssid')).toBe('rotated');
    },
  );

  it('recognises a gzip-compressed Cloudflare challenge page', async () => {
    answer = {
      status: 403,
      encoding: 'gzip',
      contentType: 'text/html',
      body: '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>cf-chl</body></html>',
    };
    const error = await transport()
      .getPage('/stars/buy')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FragmentError);
    expect((error as FragmentError).kind).toBe('CLOUDFLARE');
  });

  it('decodes a br-compressed page', async () => {
    answer = {
      status: 200,
      encoding: 'br',
      contentType: 'text/html',
      body: '<html><body>ajInit({"state":{}})</body></html>',
    };
    await expect(transport().getPage('/stars/buy')).resolves.toEqual({
      status: 200,
      body: '<html><body>ajInit({"state":{}})</body></html>',
    });
  });
});
