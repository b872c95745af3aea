/**
 * Fields every log line written inside a unit of work carries (a worker job's `request_id` and
 * purchase id), without threading a child logger through every call: an AsyncLocalStorage store
 * that the logger's format reads. The active trace id joins them when tracing is on.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { activeTraceId } from '../observability/tracing';

const store = new AsyncLocalStorage<Record<string, unknown>>();

export function withLogContext<T>(fields: Record<string, unknown>, work: () => T): T {
  return store.run({ ...store.getStore(), ...fields }, work);
}

/** Adds to the current unit of work's fields (e.g. the request id once the row is read). */
export function addLogContext(fields: Record<string, unknown>): void {
  const current = store.getStore();
  if (current) Object.assign(current, fields);
}

/** The fields for a log line: the context's, then the trace id; a line's own fields win. */
export function logContextFields(): Record<string, unknown> {
  const traceId = activeTraceId();
  const fields = store.getStore();
  if (!fields && !traceId) return {};
  return { ...fields, ...(traceId ? { trace_id: traceId } : {}) };
}
