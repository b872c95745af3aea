import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorCode } from '@starsgate/domain';

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

function answerFor(errorCode: string | undefined): { status: number; code: ErrorCode; field: string; message: string } {
  if (errorCode === 'HPE_HEADER_OVERFLOW')
    return { status: 431, code: 'PAYLOAD_TOO_LARGE', field: 'headers', message: 'exceed the size limit' };
  if (errorCode === 'ERR_HTTP_REQUEST_TIMEOUT')
    return { status: 408, code: 'VALIDATION_FAILED', field: 'request', message: 'was not received in time' };
  return {
    status: 400,
    code: 'VALIDATION_FAILED',
    field: 'request',
    message: `is not valid HTTP/1.1 (${errorCode ?? 'parse error'})`,
  };
}

/**
 * Requests Node's HTTP server answers before Express sees them get the service's one error body
 * too (the fuzzer found bare 400s and 417s without a code):
 * - bytes that are no valid HTTP/1.1 request, a body cut short of its Content-Length, headers too
 *   large (`clientError`: Node's default writes a bare 400/431);
 * - an `Expect` other than `100-continue` (Node's default is a bare 417; RFC 9110 §10.1.1 lets a
 *   server ignore it, so the request is served as if it had none).
 */
export function answerMalformedRequests(
  server: Server,
  app: (req: IncomingMessage, res: ServerResponse) => void,
): void {
  server.on('checkExpectation', app);
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // Node's own default checks the same: an answer already under way is not interrupted.
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const answer = answerFor(error.code);
    const body = JSON.stringify({
      code: answer.code,
      message: 'The request could not be read.',
      details: [{ field: answer.field, message: answer.message }],
      request_id: randomUUID(),
    });
    socket.end(
      `HTTP/1.1 ${answer.status} ${REASONS[answer.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
