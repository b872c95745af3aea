import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Pipeline } from '../types';

const cssVar = (name: string): string => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

function series(points: Pipeline['throughput']): uPlot.AlignedData {
  return [
    points.map((point) => new Date(point.minute).getTime() / 1000),
    points.map((point) => point.completed),
    points.map((point) => point.failed),
  ];
}

/** Completions and failures per minute over the last hour (uPlot), in the theme's colours. */
export function ThroughputChart({ points, theme }: { points: Pipeline['throughput']; theme: string }) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);

  useEffect(() => {
    const element = host.current!;
    const axis = { stroke: cssVar('--muted'), grid: { stroke: cssVar('--grid') }, ticks: { stroke: cssVar('--grid') } };
    const plot = new uPlot(
      {
        width: Math.max(320, element.clientWidth),
        height: 220,
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(5, max)] } },
        axes: [axis, { ...axis, label: 'per minute' }],
        series: [
          {},
          { label: 'completed', stroke: cssVar('--ok'), fill: `${cssVar('--ok')}33`, width: 2 },
          { label: 'failed', stroke: cssVar('--bad'), fill: `${cssVar('--bad')}33`, width: 2 },
        ],
      },
      series(points),
      element,
    );
    chart.current = plot;
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(320, element.clientWidth), height: 220 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
      chart.current = null;
    };
    // Rebuilt on a theme change: uPlot takes its colours at creation.
  }, [theme]);

  useEffect(() => {
    chart.current?.setData(series(points));
  }, [points]);

  return <div class="chart" ref={host} data-testid="throughput-chart" />;
}
