/**
 * The service's spans and the trace context a purchase carries between processes. Only the
 * OpenTelemetry API is used here: without a registered SDK (tracing off, the default) every call
 * is a no-op, and a job carries no trace context.
 */
import {
  context,
  INVALID_SPAN_CONTEXT,
  propagation,
  ROOT_CONTEXT,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';

const tracer = () => trace.getTracer('starsgate');

let enabled = false;

/** Set by startTracing once an SDK is registered; until then the helpers below skip span work. */
export function markTracingEnabled(): void {
  enabled = true;
}

export function tracingEnabled(): boolean {
  return enabled;
}

/** W3C trace context as a job carries it (`traceparent`, `tracestate`). */
export type TraceCarrier = Record<string, string>;

/**
 * Runs `work` inside a new active span: its error is recorded on the span (by its name and code,
 * never its message, which may quote an upstream answer) and thrown on.
 */
export async function inSpan<T>(
  name: string,
  attributes: Attributes,
  work: (span: Span) => Promise<T>,
  parent?: Context,
): Promise<T> {
  if (!enabled) return work(trace.wrapSpanContext(INVALID_SPAN_CONTEXT));
  return tracer().startActiveSpan(name, { attributes }, parent ?? context.active(), async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: errorLabel(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * Runs `call` with a new span active. A promise ends the span when it settles; a synchronous
 * result (an accessor such as a client's session id) leaves the span unended, and so never exported.
 */
export function traceCall<T>(name: string, attributes: Attributes, call: () => T): T {
  if (!enabled) return call();
  const span = tracer().startSpan(name, { attributes });
  const result = context.with(trace.setSpan(context.active(), span), call);
  if (!(result instanceof Promise)) return result;
  return result.then(
    (value: unknown) => {
      span.end();
      return value;
    },
    (error: unknown) => {
      span.setStatus({ code: SpanStatusCode.ERROR, message: errorLabel(error) });
      span.end();
      throw error;
    },
  ) as T;
}

function errorLabel(error: unknown): string {
  if (!(error instanceof Error)) return 'error';
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? `${error.name} ${code}` : error.name;
}

/** The active trace context, to hand to the next job; undefined when nothing is traced. */
export function currentTraceCarrier(): TraceCarrier | undefined {
  if (!enabled) return undefined;
  const carrier: TraceCarrier = {};
  propagation.inject(context.active(), carrier);
  return carrier['traceparent'] ? carrier : undefined;
}

/** The context a job's carrier names (the root context when it carries none). */
export function contextFromCarrier(carrier: TraceCarrier | undefined): Context {
  return carrier ? propagation.extract(ROOT_CONTEXT, carrier) : ROOT_CONTEXT;
}

/** The active span's trace id, for log lines; undefined when nothing is traced. */
export function activeTraceId(): string | undefined {
  if (!enabled) return undefined;
  const spanContext = trace.getActiveSpan()?.spanContext();
  return spanContext && trace.isSpanContextValid(spanContext) ? spanContext.traceId : undefined;
}

/** Sets attributes on the active span (e.g. the request id on the gateway's HTTP span). */
export function annotateActiveSpan(attributes: Attributes): void {
  if (enabled) trace.getActiveSpan()?.setAttributes(attributes);
}
