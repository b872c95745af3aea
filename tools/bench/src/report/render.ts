/** Renders one run's charts into <docs>/benchmarks/ and writes <docs>/benchmarks.md. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TopLevelSpec } from 'vega-lite' with { 'resolution-mode': 'import' };
import { costSpec, latencySpec, openLoopSpec, pipelineSpec, renderVegaLite, throughputSpec } from './charts';
import { renderMarkdown, type ChartFiles } from './markdown';
import type { ReportData } from './report-data';
import type { BenchRun } from '../support/bench-json';

/** The connection count closest to the reference that every route of the result was measured at. */
function nearestConnections(runs: BenchRun[], reference: number): number | undefined {
  const counts = [...new Set(runs.map((run) => run.connections).filter((c): c is number => c !== undefined))];
  return counts.sort((a, b) => Math.abs(a - reference) - Math.abs(b - reference))[0];
}

export async function renderReport(data: ReportData, docsDir: string): Promise<string[]> {
  const chartDir = path.join(docsDir, 'benchmarks');
  mkdirSync(chartDir, { recursive: true });
  const written: string[] = [];
  const charts: ChartFiles = {};
  const { meta, results } = data;
  const machine = `${meta.machine.cpuModel}, ${meta.machine.cores} cores, load ${meta.loadBefore.loadAverage[0].toFixed(2)} before → ${meta.loadAfter.loadAverage[0].toFixed(2)} after; ${meta.startedAt.slice(0, 10)}`;
  const chart = async (key: keyof ChartFiles, file: string, spec: TopLevelSpec) => {
    const { png } = await renderVegaLite(spec);
    writeFileSync(path.join(chartDir, file), png);
    written.push(path.join(chartDir, file));
    charts[key] = `benchmarks/${file}`;
  };
  const reference = Number(meta.settings.referenceConnections ?? 64);

  if (results.gateway) {
    const at = nearestConnections(results.gateway.runs, reference);
    if (at !== undefined)
      await chart(
        'latency',
        'gateway-latency.png',
        latencySpec(results.gateway.runs, at, `bench:gateway — ${machine}`),
      );
    if (new Set(results.gateway.runs.map((run) => run.connections)).size > 1)
      await chart(
        'throughput',
        'gateway-throughput.png',
        throughputSpec(results.gateway.runs, `bench:gateway — ${machine}`),
      );
  }
  if (results.reads) {
    const at = nearestConnections(results.reads.runs, reference);
    if (at !== undefined)
      await chart('readsLatency', 'reads-latency.png', latencySpec(results.reads.runs, at, `bench:reads — ${machine}`));
  }
  if (results.pipeline?.runs.length)
    await chart('pipeline', 'pipeline.png', pipelineSpec(results.pipeline.runs, `bench:pipeline — ${machine}`));
  const openLoop = results['open-loop'];
  if (openLoop?.runs.length)
    await chart(
      'openLoop',
      'open-loop-latency.png',
      openLoopSpec(openLoop.runs, Number(openLoop.settings.servedP99Ms ?? 20), `bench:open-loop — ${machine}`),
    );
  const paced = results.cost?.runs.find((run) => run.group === 'paced pipeline');
  if (paced)
    await chart(
      'cost',
      'cost-cpu.png',
      costSpec(paced.cpuMsPerPurchase as Record<string, number>, `bench:cost — ${machine}`),
    );
  if (data.profile) charts.flameGraph = data.profile.flameGraph;

  const page = path.join(docsDir, 'benchmarks.md');
  writeFileSync(page, renderMarkdown(data, charts));
  written.push(page);
  return written;
}
