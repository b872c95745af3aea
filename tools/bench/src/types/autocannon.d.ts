/** autocannon ships no types; this is the part the benches use. */
declare module 'autocannon' {
  export interface Result {
    requests: { average: number; total: number };
    latency: { p50: number; p90: number; p99: number; p99_9: number; average: number; max: number };
    non2xx: number;
    errors: number;
    timeouts: number;
  }
  export default function autocannon(options: Record<string, unknown>): Promise<Result>;
}
