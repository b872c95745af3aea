/**
 * A public listener's requests start their own traces (docs/security.md, attack 23): the W3C trace
 * context a client sends (`traceparent`, `tracestate`, `baggage`) would otherwise make our server
 * span a child in a trace the client chose, with sampling decided by the client's flag. The headers
 * are taken off each request before the HTTP instrumentation reads them, and the client's context
 * becomes a link on the new trace's server span (`linkClientTraceContext`, the instrumentation's
 * request hook), so a client's trace can still be followed into ours.
 */
import type { IncomingMessage, Server } from 'node:http';
import { propagation, ROOT_CONTEXT, trace, isSpanContextValid, type Span } from '@opentelemetry/api';

const TRACE_CONTEXT_HEADERS = ['traceparent', 'tracestate', 'baggage'] as const;

/** On the request itself (a registered symbol): the tracing SDK may be a separate module instance. */
const CLIENT_TRACE_CONTEXT = Symbol.for('starsgate.client-trace-context');

type WithClientTraceContext = IncomingMessage & { [CLIENT_TRACE_CONTEXT]?: Record<string, string> };

/** Takes the trace context headers off every request `server` receives, before any listener sees them. */
export function startTracesAtThisServer(server: Server): void {
  // The prototype's emit, which the HTTP instrumentation wraps: this runs first.
  const emit = server.emit.bind(server) as (event: string | symbol, ...args: unknown[]) => boolean;
  server.emit = ((event: string | symbol, ...args: unknown[]): boolean => {
    if (event === 'request') {
      const request = args[0] as WithClientTraceContext;
      const carrier: Record<string, string> = {};
      for (const name of TRACE_CONTEXT_HEADERS) {
        const value = request.headers[name];
        if (typeof value === 'string') carrier[name] = value;
        delete request.headers[name];
      }
      if (carrier.traceparent !== undefined) request[CLIENT_TRACE_CONTEXT] = carrier;
    }
    return emit(event, ...args);
  }) as Server['emit'];
}

/** The HTTP instrumentation's request hook: links a new server span to the context its client sent. */
export function linkClientTraceContext(span: Span, request: unknown): void {
  const carrier = (request as WithClientTraceContext)[CLIENT_TRACE_CONTEXT];
  if (carrier === undefined) return;
  const client = trace.getSpanContext(propagation.extract(ROOT_CONTEXT, carrier));
  if (client && isSpanContextValid(client)) span.addLink({ context: client });
}
