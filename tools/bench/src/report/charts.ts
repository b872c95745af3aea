/**
 * The report's charts: Vega-Lite specs compiled to Vega, rendered headless to SVG by a Vega View
 * (no canvas, no browser), then rasterised to PNG by resvg with the system's fonts.
 */
import { Resvg } from '@resvg/resvg-js';
import type { TopLevelSpec } from 'vega-lite' with { 'resolution-mode': 'import' };
import { isBare, type BenchRun } from '../support/bench-json';

const FONT = 'DejaVu Sans';
/** The service's subjects in blues first, the bare baseline last in grey, whatever the bench named them. */
function subjectColours(runs: BenchRun[]): { domain: string[]; range: string[] } {
  const subjects = [...new Set(runs.map((run) => run.subject))];
  const ours = subjects.filter((subject) => !isBare(subject));
  const bare = subjects.filter(isBare);
  const blues = ['#2f6db5', '#7b4fb8', '#1f9e89', '#d6a000'];
  return {
    domain: [...ours, ...bare],
    range: [...ours.map((_, i) => blues[i % blues.length]!), ...bare.map(() => '#b0b0b0')],
  };
}
const BATCHING_COLOURS = { domain: ['batching on', 'batching off'], range: ['#2f9e44', '#e8590c'] };

const CONFIG = {
  font: FONT,
  background: 'white',
  padding: 12,
  title: { fontSize: 16, subtitleFontSize: 12, subtitleColor: '#555', anchor: 'start' as const, offset: 10 },
  axis: { labelFontSize: 11, titleFontSize: 12 },
  legend: { labelFontSize: 12, titleFontSize: 12, orient: 'top' as const },
  header: { labelFontSize: 12, labelFontWeight: 'bold' as const, titleFontSize: 12 },
};

/** SVG (vega View, headless) → PNG (resvg), at `scale` × the spec's size. */
export async function renderVegaLite(spec: TopLevelSpec, scale = 2): Promise<{ svg: string; png: Buffer }> {
  const vegaLite = await import('vega-lite');
  const vega = await import('vega');
  const compiled = vegaLite.compile({ ...spec, config: { ...CONFIG, ...(spec.config ?? {}) } }).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return { svg, png: svgToPng(svg, scale) };
}

export function svgToPng(svg: string, scale = 1): Buffer {
  const resvg = new Resvg(svg, {
    font: {
      loadSystemFonts: true,
      defaultFontFamily: FONT,
      sansSerifFamily: FONT,
      monospaceFamily: 'DejaVu Sans Mono',
    },
    background: 'white',
    fitTo: { mode: 'zoom', value: scale },
  });
  return resvg.render().asPng();
}

const PERCENTILES = [
  ['p50', 'p50'],
  ['p90', 'p90'],
  ['p99', 'p99'],
  ['p999', 'p99.9'],
] as const;

/** Grouped bars: each route's latency percentiles, the gateway beside its bare handler. */
export function latencySpec(runs: BenchRun[], connections: number, subtitle: string): TopLevelSpec {
  const colours = subjectColours(runs);
  const values = runs
    .filter((run) => run.latencyMs && run.connections === connections)
    .flatMap((run) =>
      PERCENTILES.map(([key, label]) => ({
        route: run.group,
        subject: run.subject,
        percentile: label,
        ms: run.latencyMs![key],
      })),
    );
  return {
    title: { text: `Latency percentiles at ${connections} connections (lower is better)`, subtitle },
    data: { values },
    facet: { field: 'route', type: 'nominal', title: null, sort: null },
    columns: 2,
    resolve: { scale: { y: 'independent' } },
    spec: {
      width: 320,
      height: 200,
      mark: { type: 'bar', tooltip: true },
      encoding: {
        x: {
          field: 'percentile',
          type: 'ordinal',
          sort: PERCENTILES.map(([, label]) => label),
          title: 'percentile',
          axis: { labelAngle: 0 },
        },
        xOffset: { field: 'subject', sort: colours.domain },
        y: { field: 'ms', type: 'quantitative', title: 'latency (ms)' },
        color: { field: 'subject', type: 'nominal', scale: colours, title: 'handler' },
      },
    },
  };
}

/** Lines: requests per second against concurrent connections, per route, gateway and bare. */
export function throughputSpec(runs: BenchRun[], subtitle: string): TopLevelSpec {
  const colours = subjectColours(runs);
  const values = runs
    .filter((run) => run.requestsPerSecond !== undefined && run.connections !== undefined)
    .map((run) => ({
      route: run.group,
      subject: run.subject,
      connections: run.connections,
      rps: Math.round(run.requestsPerSecond!),
    }));
  return {
    title: { text: 'Throughput against concurrent connections (higher is better)', subtitle },
    data: { values },
    facet: { field: 'route', type: 'nominal', title: null, sort: null },
    columns: 2,
    spec: {
      width: 320,
      height: 200,
      mark: { type: 'line', point: true, tooltip: true },
      encoding: {
        x: { field: 'connections', type: 'ordinal', title: 'concurrent connections', axis: { labelAngle: 0 } },
        y: { field: 'rps', type: 'quantitative', title: 'requests per second' },
        color: { field: 'subject', type: 'nominal', scale: colours, title: 'handler' },
      },
    },
  };
}

/** Bars: each pipeline scenario with batching on and off, purchases per second and wall time. */
export function pipelineSpec(runs: BenchRun[], subtitle: string): TopLevelSpec {
  const values = runs
    .filter((run) => typeof run.purchasesPerSecond === 'number')
    .map((run) => ({
      scenario: run.group,
      batching: run.subject,
      perSecond: Number((run.purchasesPerSecond as number).toFixed(2)),
      seconds: Number((run.seconds as number).toFixed(1)),
      p50: Number(((run.completionMs as { p50: number }).p50 / 1000).toFixed(2)),
    }));
  const panel = (field: string, title: string) => ({
    width: 460,
    height: { step: 16 },
    mark: { type: 'bar' as const, tooltip: true },
    encoding: {
      y: {
        field: 'scenario',
        type: 'nominal' as const,
        title: null,
        sort: null,
        axis: { labelLimit: 400 },
      },
      yOffset: { field: 'batching', sort: BATCHING_COLOURS.domain },
      x: { field, type: 'quantitative' as const, title },
      color: { field: 'batching', type: 'nominal' as const, scale: BATCHING_COLOURS, title: null },
    },
  });
  return {
    title: { text: 'Purchase pipeline, batching on and off', subtitle },
    data: { values },
    vconcat: [
      panel('perSecond', 'purchases completed per second (higher is better)'),
      panel('seconds', 'wall time of the run, s (lower is better)'),
      panel('p50', 'p50 from accepted (202) to completed, s (lower is better)'),
    ],
  };
}

/** Lines: open-loop latency percentiles against the arrival rate, one panel per route, log scale. */
export function openLoopSpec(runs: BenchRun[], servedP99Ms: number, subtitle: string): TopLevelSpec {
  const values = runs.flatMap((run) =>
    (['p50', 'p99', 'p999'] as const).map((key) => ({
      route: run.group,
      rate: run.ratePerSecond,
      percentile: key === 'p999' ? 'p99.9' : key,
      ms: Math.max(0.1, Number(run.latencyMs![key].toFixed(2))),
    })),
  );
  return {
    title: { text: 'Open-loop latency against arrival rate (lower is better)', subtitle },
    data: { values },
    facet: { field: 'route', type: 'nominal', title: null, sort: null },
    columns: 2,
    spec: {
      width: 320,
      height: 220,
      layer: [
        {
          mark: { type: 'line', point: true, tooltip: true },
          encoding: {
            x: { field: 'rate', type: 'quantitative', title: 'requests per second (scheduled)' },
            y: { field: 'ms', type: 'quantitative', scale: { type: 'log' }, title: 'latency from scheduled send (ms)' },
            color: { field: 'percentile', type: 'nominal', sort: ['p50', 'p99', 'p99.9'], title: null },
          },
        },
        {
          data: { values: [{ ms: servedP99Ms }] },
          mark: { type: 'rule', strokeDash: [4, 4], color: '#888' },
          encoding: { y: { field: 'ms', type: 'quantitative' } },
        },
      ],
    },
  };
}

/** Bars: CPU milliseconds per purchase by process (bench:cost). */
export function costSpec(cpu: Record<string, number>, subtitle: string): TopLevelSpec {
  const names: Record<string, string> = {
    gateway: 'gateway',
    worker: 'worker',
    postgres: 'PostgreSQL',
    redis: 'Redis',
  };
  const values = Object.entries(names).map(([key, label]) => ({
    process: label,
    ms: Number((cpu[key] ?? 0).toFixed(2)),
  }));
  return {
    title: { text: 'CPU time per purchase, by process (lower is better)', subtitle },
    data: { values },
    width: 460,
    height: { step: 24 },
    mark: { type: 'bar', tooltip: true, color: '#2f6db5' },
    encoding: {
      y: { field: 'process', type: 'nominal', title: null, sort: null },
      x: { field: 'ms', type: 'quantitative', title: 'CPU ms per completed purchase (user + system)' },
    },
  };
}
