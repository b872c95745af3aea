/** autocannon ships no types; this is the part the benches use. */
declare module 'autocannon' {
  export interface Result {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number; average: number };
    non2xx: number;
    errors: number;
    timeouts: number;
  }
  export default function autocannon(options: Record<string, unknown>): Promise<Result>;
}
