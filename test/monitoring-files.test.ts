/**
 * k8s/components/monitoring: every series the Grafana dashboard and the alert rules name is one the gateway
 * or the worker exports (their real registries, as the processes build them), and the alerts
 * the operations runbook relies on exist.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { createGatewayMetrics } from '@starsgate/gateway';
import { createWorkerMetrics } from '@starsgate/worker';

const dir = path.resolve(__dirname, '../k8s/components/monitoring');
const read = (file: string) => readFileSync(path.join(dir, file), 'utf8');

/** Every sample name a registry can serve: histograms and summaries add their suffixed series. */
async function exported(registry: {
  getMetricsAsJSON(): Promise<Array<{ name: string; type: unknown }>>;
}): Promise<Set<string>> {
  const names = new Set<string>();
  for (const metric of await registry.getMetricsAsJSON()) {
    names.add(metric.name);
    const type = String(metric.type);
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(metric.name + suffix);
    if (type === 'summary') for (const suffix of ['_sum', '_count']) names.add(metric.name + suffix);
  }
  return names;
}

/** Series names in a PromQL expression: the service's own prefixes and the process defaults. */
function seriesIn(expr: string): string[] {
  const withoutStrings = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  return [...withoutStrings.matchAll(/\b(?:starsgate|process|nodejs)_[a-zA-Z0-9_]+\b/g)].map((match) => match[0]);
}

interface DashboardPanel {
  title: string;
  targets?: Array<{ expr: string }>;
}
interface RuleGroup {
  rules: Array<{ alert: string; expr: string; annotations?: Record<string, string> }>;
}

const dashboard = JSON.parse(read('grafana-dashboard.json')) as { panels: DashboardPanel[] };
const rule = parse(read('prometheus-rule.yaml')) as { kind: string; spec: { groups: RuleGroup[] } };
const rules = rule.spec.groups.flatMap((group) => group.rules);

let known: Set<string>;
beforeAll(async () => {
  const gateway = await exported(createGatewayMetrics().registry);
  const worker = await exported(createWorkerMetrics().registry);
  known = new Set([...gateway, ...worker]);
});

test('the series finder sees through selectors, functions and strings (and so can fail)', () => {
  expect(seriesIn('sum by (upstream) (rate(starsgate_nope_total{outcome="starsgate_x"}[5m]))')).toEqual([
    'starsgate_nope_total',
  ]);
});

test('every dashboard panel queries only series the service exports', () => {
  expect(dashboard.panels.length).toBeGreaterThan(10);
  for (const panel of dashboard.panels) {
    const exprs = (panel.targets ?? []).map((target) => target.expr);
    expect({ panel: panel.title, hasQueries: exprs.length > 0 }).toEqual({ panel: panel.title, hasQueries: true });
    for (const expr of exprs) {
      const names = seriesIn(expr);
      expect({ panel: panel.title, expr, names: names.length > 0 }).toEqual({ panel: panel.title, expr, names: true });
      for (const name of names)
        expect({ panel: panel.title, series: name, exported: known.has(name) }).toMatchObject({ exported: true });
    }
  }
});

/**
 * Alerts on series other exporters provide: Prometheus's own `up` (a scrape target down or
 * absent) and kube-state-metrics' Job status (the doctor CronJob).
 */
const ON_OTHER_SERIES =
  /\b(up\{job=~?"starsgate-(gateway|worker)|kube_job_status_failed\{job_name=~"starsgate-doctor-)/;

test('every alert names only exported series, in its rule and in its annotations', () => {
  expect(rule.kind).toBe('PrometheusRule');
  for (const { alert, expr, annotations } of rules) {
    const names = [...seriesIn(expr), ...Object.values(annotations ?? {}).flatMap(seriesIn)];
    expect({ alert, names: seriesIn(expr).length > 0 || ON_OTHER_SERIES.test(expr) }).toEqual({ alert, names: true });
    for (const name of names)
      expect({ alert, series: name, exported: known.has(name) }).toMatchObject({ exported: true });
  }
});

/** GitHub's anchor of a Markdown heading. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');

test('every alert links its section of docs/runbooks.md (runbook_url), and that section exists', () => {
  const runbooks = readFileSync(path.resolve(__dirname, '../docs/runbooks.md'), 'utf8');
  const anchors = new Set([...runbooks.matchAll(/^#{2,3} (.+)$/gm)].map((match) => anchorOf(match[1]!)));
  expect(anchorOf('Gateway 5xx ratio')).toBe('gateway-5xx-ratio');
  for (const { alert, annotations } of rules) {
    const url = annotations?.runbook_url ?? '';
    // RUNBOOKS is the monitoring component's runbookBaseUrl parameter (test/deployment/k8s-components.test.ts).
    expect({ alert, url }).toEqual({ alert, url: expect.stringMatching(/^RUNBOOKS#[a-z0-9-]+$/) as string });
    const anchor = url.slice(url.indexOf('#') + 1);
    expect({ alert, anchor, documented: anchors.has(anchor) }).toEqual({ alert, anchor, documented: true });
  }
  // The section f35-sessions' login alert links.
  expect(anchors.has('fragment-login-dead')).toBe(true);
});

test('the alerts of the runbook exist', () => {
  expect(rules.map((entry) => entry.alert).sort()).toEqual(
    expect.arrayContaining([
      'StarsgateFragmentSessionDead',
      'StarsgatePurchaseStuck',
      'StarsgateQueueBacklogGrowing',
      'StarsgateReconciliationCaseOpen',
      'StarsgateUpstreamErrorRate',
      'StarsgateWebhookDeliveriesFailing',
      'StarsgateTargetDown',
      'StarsgateTargetAbsent',
      'StarsgateFragmentFormatErrors',
      'StarsgatePurchaseFailureRatio',
      'StarsgateGateway5xxRatio',
      'StarsgateGatewayLatencyHigh',
      'StarsgateToncenterRateLimited',
    ]),
  );
  const reconciliation = rules.find((entry) => entry.alert === 'StarsgateReconciliationCaseOpen')!;
  expect(reconciliation.expr).toMatch(/>= 600$/);
});

test('the kustomization ships the rule, the scrape targets and the dashboard', () => {
  const kustomization = parse(read('kustomization.yaml')) as {
    resources: string[];
    configMapGenerator: Array<{ files: string[] }>;
  };
  expect(kustomization.resources.sort()).toEqual(['pod-monitors.yaml', 'prometheus-rule.yaml', 'service-monitor.yaml']);
  expect(kustomization.configMapGenerator[0]!.files).toEqual(['grafana-dashboard.json']);
  const monitors = parseAllDocuments(read('pod-monitors.yaml')).map((doc) => doc.toJSON() as { kind: string });
  // The worker's pods; the gateway is scraped through its operator Service (service-monitor.yaml).
  expect(monitors.map((doc) => doc.kind)).toEqual(['PodMonitor']);
  expect((parse(read('service-monitor.yaml')) as { kind: string }).kind).toBe('ServiceMonitor');
});

/** The job labels the monitors give (test/deployment/monitors.test.ts holds the manifests to them). */
const JOBS = { gateway: 'starsgate-gateway', worker: 'starsgate-worker' };

/** Each series selector of an expression with its `job` matcher (undefined when it has none). */
function jobMatchers(expr: string): Array<{ series: string; job: string | undefined }> {
  return [...expr.matchAll(/\b((?:starsgate|process|nodejs)_[a-zA-Z0-9_]+)\b(\{[^}]*\})?/g)].map(
    ([, series, labels]) => ({
      series: series!,
      job: /\bjob=~?"([^"]*)"/.exec(labels ?? '')?.[1],
    }),
  );
}

test('every dashboard and alert series names the job(s) of the processes exporting it, so no other scrape adds in', async () => {
  const gateway = await exported(createGatewayMetrics().registry);
  const worker = await exported(createWorkerMetrics().registry);
  const expectedJob = (series: string) =>
    [gateway.has(series) ? JOBS.gateway : undefined, worker.has(series) ? JOBS.worker : undefined]
      .filter(Boolean)
      .join('|');
  const exprs = [
    ...dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr)),
    ...rules.map((entry) => entry.expr),
  ];
  const selectors = exprs.flatMap(jobMatchers);
  expect(selectors.length).toBeGreaterThan(exprs.length - 1);
  for (const { series, job } of selectors) expect({ series, job }).toEqual({ series, job: expectedJob(series) });
  expect(jobMatchers('sum(rate(starsgate_x_total{outcome="a"}[5m]))')).toEqual([
    { series: 'starsgate_x_total', job: undefined },
  ]);
});
