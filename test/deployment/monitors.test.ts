/**
 * Prometheus scrapes each pod port once: no two monitors (ServiceMonitor or PodMonitor, from the
 * overlay's k8s/components/monitoring or applied beside it) select the same pod and port, or every series
 * of that pod would be counted twice in the dashboard's sums.
 */
import { parse } from 'yaml';
import { render, validateAgainstSchemas, type KubeObject } from './k8s-manifests';
import { scrapedPorts } from './scrape-targets';

/** The production overlay, with its monitoring component. */
const production = render('production');
const MONITORING_KINDS = new Set(['ServiceMonitor', 'PodMonitor', 'PrometheusRule']);
const monitoring = production.filter(
  (object) => MONITORING_KINDS.has(object.kind) || object.metadata.name === 'starsgate-grafana-dashboard',
);
const sandbox = render('sandbox');

const scrapedTwice = (objects: KubeObject[]) => scrapedPorts(objects).filter((entry) => entry.monitors.length > 1);

test('the monitoring component renders its monitors, rules and dashboard in the overlay namespace, valid against their schemas', () => {
  expect(monitoring.map((object) => `${object.kind}/${object.metadata.name}`).sort()).toEqual([
    'ConfigMap/starsgate-grafana-dashboard',
    'PodMonitor/starsgate-worker',
    'PrometheusRule/starsgate',
    'ServiceMonitor/starsgate-gateway',
  ]);
  expect(validateAgainstSchemas(monitoring).filter((result) => result.errors.length > 0)).toEqual([]);
  for (const object of monitoring) expect(object.metadata.namespace).toBe('starsgate');
  // The demo overlay runs no Prometheus Operator: nothing of it is rendered there.
  expect(sandbox.filter((object) => MONITORING_KINDS.has(object.kind))).toEqual([]);
});

test.each([
  ['production', production],
  ['sandbox', sandbox],
])('%s: no pod port is scraped by two monitors', (_name, objects) => {
  expect(scrapedTwice(objects)).toEqual([]);
});

test('production scrapes the gateway operator port and the worker metrics port, once each, as jobs starsgate-gateway and starsgate-worker', () => {
  const scraped = scrapedPorts(production).map(({ pod, port, jobs }) => ({ pod, port, jobs }));
  expect(scraped).toEqual(
    expect.arrayContaining([
      { pod: 'Deployment/starsgate/starsgate-gateway', port: 8081, jobs: ['starsgate-gateway'] },
      { pod: 'Deployment/starsgate/starsgate-worker', port: 9464, jobs: ['starsgate-worker'] },
    ]),
  );
});

test('a second monitor on the gateway port (a PodMonitor beside the ServiceMonitor) is caught', () => {
  const podMonitor = parse(`
apiVersion: monitoring.coreos.com/v1
kind: PodMonitor
metadata:
  name: starsgate-gateway
  namespace: starsgate
spec:
  selector:
    matchExpressions:
      - key: app.kubernetes.io/name
        operator: In
        values: [starsgate-gateway]
  podMetricsEndpoints:
    - port: admin
`) as KubeObject;
  expect(scrapedTwice([...production, podMonitor])).toEqual([
    {
      pod: 'Deployment/starsgate/starsgate-gateway',
      port: 8081,
      monitors: ['PodMonitor/starsgate/starsgate-gateway', 'ServiceMonitor/starsgate/starsgate-gateway'],
      jobs: ['starsgate/starsgate-gateway', 'starsgate-gateway'],
    },
  ]);
  // By port number or from another namespace through namespaceSelector, the same pod port is the same target.
  const byNumber = {
    ...podMonitor,
    metadata: { name: 'elsewhere', namespace: 'monitoring' },
    spec: {
      namespaceSelector: { matchNames: ['starsgate'] },
      selector: { matchLabels: { 'app.kubernetes.io/name': 'starsgate-worker' } },
      podMetricsEndpoints: [{ portNumber: 9464 }],
    },
  };
  expect(scrapedTwice([...production, byNumber]).map((entry) => entry.monitors)).toEqual([
    ['PodMonitor/starsgate/starsgate-worker', 'PodMonitor/monitoring/elsewhere'],
  ]);
});
