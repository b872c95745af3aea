/**
 * k8s/components/: what an overlay adds by naming a component, and each component's parameters
 * (a `*-parameters` ConfigMap, local to kustomize, patched by the overlay) landing where they must.
 * Overlays of this test's own, in a temporary folder, use the repository's base and components.
 * HTTPRoute and ExternalSecret have no schema package here (validate-k8s.mjs): their fields are
 * asserted below.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PURCHASE_QUEUE, WEBHOOK_QUEUE } from '@starsgate/platform';
import { find, render, renderKustomization, validateAgainstSchemas, type KubeObject } from './k8s-manifests';
import { root } from './repo-root';

const k8s = path.join(root, 'k8s');

/** Renders an overlay of the base with `components`, `extra` appended to its kustomization.yaml. */
function renderOverlay(components: string[], extra = ''): KubeObject[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'k8s-overlay-'));
  try {
    writeFileSync(
      path.join(dir, 'kustomization.yaml'),
      [
        'apiVersion: kustomize.config.k8s.io/v1beta1',
        'kind: Kustomization',
        'namespace: shop',
        'resources:',
        `  - ${path.relative(dir, path.join(k8s, 'base'))}`,
        'components:',
        ...components.map((component) => `  - ${path.relative(dir, path.join(k8s, 'components', component))}`),
        extra,
      ].join('\n'),
    );
    return renderKustomization(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** An overlay's values for a component's parameters, as k8s/overlays/production sets them. */
const parameters = (name: string, data: Record<string, string>) =>
  [
    'configMapGenerator:',
    `  - name: ${name}`,
    '    behavior: merge',
    '    literals:',
    ...Object.entries(data).map(([key, value]) => `      - ${key}=${value}`),
  ].join('\n');

interface NetworkPolicyRule {
  from: Array<{ namespaceSelector: { matchLabels: Record<string, string> } }>;
  ports: Array<{ port: number }>;
}
const admittedNamespaces = (objects: KubeObject[], policy: string) =>
  (find(objects, 'NetworkPolicy', policy).spec as { ingress: NetworkPolicyRule[] }).ingress.map((rule) => ({
    port: rule.ports[0]!.port,
    namespace: rule.from[0]!.namespaceSelector.matchLabels['kubernetes.io/metadata.name'],
  }));

interface ScaledObjectSpec {
  fallback?: { failureThreshold: number; replicas: number };
  triggers: Array<{ type: string; metadata: Record<string, string> }>;
}
const scaledObject = (objects: KubeObject[]) =>
  find(objects, 'ScaledObject', 'starsgate-worker').spec as ScaledObjectSpec;

test("components' parameter ConfigMaps are kustomize-local: never rendered", () => {
  const objects = renderOverlay(['gateway-api', 'monitoring', 'keda', 'external-secrets']);
  expect(objects.filter((object) => object.metadata.name.endsWith('-parameters'))).toEqual([]);
  expect(validateAgainstSchemas(objects).filter((result) => result.errors.length > 0)).toEqual([]);
});

test('gateway-api: an HTTPRoute to the public Service only, attached to the Gateway its parameters name; the NetworkPolicy admits its proxy namespace', () => {
  const objects = renderOverlay(
    ['gateway-api'],
    parameters('starsgate-ingress-parameters', {
      gatewayName: 'edge',
      gatewayNamespace: 'infra',
      ingressNamespace: 'envoy-gateway-system',
    }),
  );
  const route = find(objects, 'HTTPRoute', 'starsgate-gateway');
  expect(route.apiVersion).toBe('gateway.networking.k8s.io/v1');
  const spec = route.spec as {
    parentRefs: Array<{ name: string; namespace: string }>;
    rules: Array<{ backendRefs: Array<{ name: string; port: number }> }>;
  };
  expect(spec.parentRefs).toEqual([{ name: 'edge', namespace: 'infra' }]);
  const backends = spec.rules.flatMap((rule) => rule.backendRefs);
  expect(backends).toEqual([{ name: 'starsgate-gateway', port: 80 }]);
  const service = find(objects, 'Service', 'starsgate-gateway').spec as { ports: Array<{ port: number }> };
  expect(service.ports.map((entry) => entry.port)).toContain(80);
  expect(admittedNamespaces(objects, 'starsgate-gateway-ingress')[0]).toEqual({
    port: 8080,
    namespace: 'envoy-gateway-system',
  });
  expect(objects.some((object) => object.kind === 'Ingress')).toBe(false);
});

test('ingress-nginx: an Ingress to the public Service only; its controller namespace is a parameter of the NetworkPolicy', () => {
  const objects = renderOverlay(
    ['ingress-nginx'],
    parameters('starsgate-ingress-parameters', { ingressNamespace: 'edge-nginx' }),
  );
  const ingress = find(objects, 'Ingress', 'starsgate-gateway').spec as {
    rules: Array<{ http: { paths: Array<{ backend: { service: { name: string } } }> } }>;
  };
  expect(ingress.rules.flatMap((rule) => rule.http.paths.map((entry) => entry.backend.service.name))).toEqual([
    'starsgate-gateway',
  ]);
  expect(admittedNamespaces(objects, 'starsgate-gateway-ingress')[0]).toEqual({ port: 8080, namespace: 'edge-nginx' });
});

test("monitoring: the monitors and rules in the overlay's namespace; Prometheus's namespace is a parameter of both NetworkPolicies", () => {
  const objects = renderOverlay(
    ['monitoring'],
    parameters('starsgate-monitoring-parameters', { prometheusNamespace: 'observability' }),
  );
  for (const kind of ['ServiceMonitor', 'PodMonitor', 'PrometheusRule'])
    expect(objects.filter((object) => object.kind === kind).map((object) => object.metadata.namespace)).toEqual([
      'shop',
    ]);
  expect(admittedNamespaces(objects, 'starsgate-gateway-ingress')[1]).toEqual({
    port: 8081,
    namespace: 'observability',
  });
  expect(admittedNamespaces(objects, 'starsgate-worker-metrics-ingress')).toEqual([
    { port: 9464, namespace: 'observability' },
  ]);
});

test('keda: the BullMQ prefix from starsgate-config and TLS from its parameters in every redis trigger, a fallback, and a Prometheus trigger counting active jobs', () => {
  const objects = renderOverlay(
    ['keda'],
    [
      parameters('starsgate-keda-parameters', { enableTLS: 'true', prometheusAddress: 'http://prom.obs.svc:9090' }),
      '  - name: starsgate-config',
      '    behavior: merge',
      '    literals:',
      '      - BULLMQ_PREFIX=shopq',
    ].join('\n'),
  );
  const spec = scaledObject(objects);
  const redis = spec.triggers.filter((trigger) => trigger.type === 'redis');
  expect(redis.map((trigger) => trigger.metadata.listName)).toEqual([
    `shopq:${PURCHASE_QUEUE}:wait`,
    `shopq:${PURCHASE_QUEUE}:prioritized`,
    `shopq:${WEBHOOK_QUEUE}:wait`,
  ]);
  expect(redis.map((trigger) => trigger.metadata.enableTLS)).toEqual(['true', 'true', 'true']);
  expect(spec.fallback).toEqual({ failureThreshold: 3, replicas: expect.any(Number) as number });
  const prometheus = spec.triggers.find((trigger) => trigger.type === 'prometheus')!;
  expect(prometheus.metadata.serverAddress).toBe('http://prom.obs.svc:9090');
  expect(prometheus.metadata.query).toMatch(/starsgate_queue_jobs\{[^}]*state=~"[^"]*\bactive\b/);
  expect(prometheus.metadata.query).toContain('job="starsgate-worker"');
});

test('external-secrets: one ExternalSecret per component Secret the pods and KEDA read, each making the Secret of its name', () => {
  const objects = render('production');
  const external = objects.filter((object) => object.kind === 'ExternalSecret');
  expect(external.map((object) => object.metadata.name).sort()).toEqual([
    'starsgate-gateway',
    'starsgate-keda',
    'starsgate-migrate',
    'starsgate-worker',
  ]);
  for (const object of external) {
    expect(object.apiVersion).toBe('external-secrets.io/v1');
    const spec = object.spec as {
      secretStoreRef: { kind: string; name: string };
      target: { name: string };
      dataFrom: Array<{ extract: { key: string } }>;
    };
    expect(spec.target.name).toBe(object.metadata.name);
    expect(spec.secretStoreRef.kind).toMatch(/^(Cluster)?SecretStore$/);
    expect(spec.dataFrom[0]!.extract.key).toBeTruthy();
  }
  // Every Secret a workload (secretKeyRef) or KEDA (secretTargetRef) names is one of them.
  const referenced = new Set(
    [
      ...JSON.stringify(objects.filter((object) => object.kind !== 'ExternalSecret')).matchAll(
        /"key":"[^"]*","name":"(starsgate-[a-z]+)"/g,
      ),
    ].map((match) => match[1]),
  );
  expect([...referenced].sort()).toEqual([
    'starsgate-gateway',
    'starsgate-keda',
    'starsgate-migrate',
    'starsgate-worker',
  ]);
});

test('production uses the Gateway API, monitoring, KEDA and external secrets; the demo overlay none of them', () => {
  const production = render('production');
  for (const kind of ['HTTPRoute', 'ServiceMonitor', 'PodMonitor', 'PrometheusRule', 'ScaledObject', 'ExternalSecret'])
    expect({ kind, rendered: production.some((object) => object.kind === kind) }).toEqual({ kind, rendered: true });
  expect(scaledObject(production).fallback).toEqual({ failureThreshold: 3, replicas: 6 });
  const sandbox = render('sandbox');
  expect(
    sandbox.filter(
      (object) =>
        !object.apiVersion.match(/^(v1|apps\/v1|batch\/v1|policy\/v1|autoscaling\/v2|networking\.k8s\.io\/v1)$/),
    ),
  ).toEqual([]);
});

test("monitoring: every alert's runbook_url is the runbookBaseUrl parameter plus its anchor", () => {
  const objects = renderOverlay(
    ['monitoring'],
    parameters('starsgate-monitoring-parameters', { runbookBaseUrl: 'https://docs.shop.example/runbooks' }),
  );
  const rules = (
    find(objects, 'PrometheusRule', 'starsgate').spec as {
      groups: Array<{ rules: Array<{ alert: string; annotations: { runbook_url: string } }> }>;
    }
  ).groups.flatMap((group) => group.rules);
  expect(rules.length).toBeGreaterThan(10);
  for (const { alert, annotations } of rules)
    expect({ alert, url: annotations.runbook_url }).toEqual({
      alert,
      url: expect.stringMatching(/^https:\/\/docs\.shop\.example\/runbooks#[a-z0-9-]+$/) as string,
    });
});
