/**
 * The V8 heap sizes the gateway's and the worker's images start them with (`NODE_OPTIONS` in their
 * Dockerfile stages; test/deployment holds the Dockerfile to this list), which the stack's built
 * processes get too, so that benches and tests measure the memory the images use. Left to its
 * defaults, V8 sizes the young generation and the old generation's first collection limit from the
 * machine's memory (a 4.5 GB heap limit here): the worker's resident set climbed from 160 MB idle
 * to 294 MB in bench:cost though its live heap stayed under 50 MB, garbage waiting for a collection
 * that was not yet due. Measured in bench:cost (docs/benchmarks.md, issue 37): an 8 MB semi-space
 * and a 256 MB old generation (five times the live heap under load) brought the worker's peak to
 * 158 MB and the gateway's to 134 MB, with no CPU change beyond the run-to-run noise. Later flags
 * win, so NODE_OPTIONS="… --max-old-space-size=512" (or `=0`, V8's own sizing) overrides them.
 */
import type { ServiceKind } from './entrypoints';

export const SERVICE_HEAP_FLAGS: Readonly<Record<ServiceKind, readonly string[]>> = {
  gateway: ['--max-semi-space-size=8', '--max-old-space-size=256'],
  worker: ['--max-semi-space-size=8', '--max-old-space-size=256'],
  sandbox: [],
};

/** NODE_OPTIONS for a built service: its heap flags, then whatever the caller adds (a profiler, say). */
export function withHeapFlags(kind: ServiceKind, nodeOptions: string | undefined): string | undefined {
  const flags = [...SERVICE_HEAP_FLAGS[kind], ...(nodeOptions ? [nodeOptions] : [])].join(' ');
  return flags || undefined;
}
