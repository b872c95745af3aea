/**
 * Attack 15 (docs/security.md): the operator surfaces (`/metrics`, the dashboard, Bull Board, the
 * operator API) were served on the public port, so whatever routed the public API routed them too.
 * They now have their own listener (`ADMIN_PORT`): on a running stack the public port does not know
 * them and the operator port serves them; in k8s the operator port has its own Service, which the
 * ingress never routes and only monitoring may reach.
 */
import { find, podSpec, render, type KubeObject } from '../deployment/k8s-manifests';
import { startStack, type RunningStack } from '../support/running-stack';

jest.setTimeout(240_000);

/** Every operator surface, as a client would request it. */
const OPERATOR_SURFACES: Array<{ path: string; method?: string; accept?: string }> = [
  { path: '/metrics' },
  { path: '/admin' },
  { path: '/admin/' },
  { path: '/admin/assets/app.js' },
  { path: '/admin/session' },
  { path: '/admin/login', method: 'POST' },
  { path: '/admin/api/stats' },
  { path: '/admin/api/purchases' },
  { path: '/admin/api/webhook-endpoints', method: 'POST' },
  { path: '/admin/queues', accept: 'text/html' },
  { path: '/admin/queues/api/queues' },
];

describe('a running stack', () => {
  let stack: RunningStack;
  const call = (base: string, surface: (typeof OPERATOR_SURFACES)[number]) =>
    fetch(`${base}${surface.path}`, {
      method: surface.method ?? 'GET',
      redirect: 'manual',
      headers: {
        authorization: `Bearer ${stack.adminToken}`,
        accept: surface.accept ?? 'application/json',
        ...(surface.method === 'POST' ? { 'content-type': 'application/json', origin: base } : {}),
      },
      ...(surface.method === 'POST' ? { body: '{}' } : {}),
    });

  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('listens on two ports, and `npm start` prints both addresses', () => {
    expect(stack.adminUrl).not.toBe(stack.gatewayUrl);
    expect(stack.output()).toContain(`gateway ready at ${stack.gatewayUrl}`);
    expect(stack.output()).toContain(`operator listener at ${stack.adminUrl}`);
    expect(stack.output()).toContain(`operator API at ${stack.adminUrl}/admin/api`);
  });

  it('the public port answers 404 NOT_FOUND for every operator surface, even with the admin token', async () => {
    for (const surface of OPERATOR_SURFACES) {
      const response = await call(stack.gatewayUrl, surface);
      const body = (await response.json().catch(() => ({}))) as { code?: string };
      expect({ path: surface.path, status: response.status, code: body.code }).toEqual({
        path: surface.path,
        status: 404,
        code: 'NOT_FOUND',
      });
    }
  });

  it('the operator port serves them', async () => {
    const metrics = await fetch(`${stack.adminUrl}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('http_request_duration_seconds');
    const page = await fetch(`${stack.adminUrl}/admin`);
    expect([page.status, page.headers.get('content-type')?.split(';')[0]]).toEqual([200, 'text/html']);
    const stats = await call(stack.adminUrl, { path: '/admin/api/stats' });
    expect(stats.status).toBe(200);
    // Bull Board without a session sends the browser to the dashboard's login.
    const board = await call(stack.adminUrl, { path: '/admin/queues', accept: 'text/html' });
    expect([board.status, board.headers.get('location')]).toEqual([303, '/admin#/queues']);
  });

  it('the operator port serves no public route, and the public port still serves its own', async () => {
    for (const path of ['/api/v1/purchases/00000000-0000-4000-8000-000000000000', '/openapi.json', '/docs/'])
      expect({ path, status: (await fetch(`${stack.adminUrl}${path}`)).status }).toEqual({ path, status: 404 });
    for (const path of ['/livez', '/readyz', '/openapi.json'])
      expect({ path, status: (await fetch(`${stack.gatewayUrl}${path}`)).status }).toEqual({ path, status: 200 });
  });

  it('the public /docs page carries a Content-Security-Policy that admits only its own origin', async () => {
    const docs = await fetch(`${stack.gatewayUrl}/docs/`);
    expect(docs.status).toBe(200);
    const policy = docs.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self';");
    expect(policy).toContain("connect-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
  });
});

describe('the production k8s manifests (kubectl kustomize k8s/overlays/production)', () => {
  const objects = render('production');
  const gateway = podSpec(find(objects, 'Deployment', 'starsgate-gateway')).containers.find(
    (container) => container.name === 'gateway',
  )!;
  const containerPort = (name: string) => gateway.ports!.find((port) => port.name === name)!.containerPort;
  const env = (name: string) => gateway.env!.find((variable) => variable.name === name)?.value;
  const servicePorts = (service: KubeObject) =>
    (service.spec as { ports: Array<{ name: string; targetPort: string }> }).ports;

  it('the gateway listens for operators on ADMIN_PORT, a port of its own named `admin`', () => {
    expect(containerPort('admin')).toBe(Number(env('ADMIN_PORT')));
    expect(containerPort('admin')).not.toBe(containerPort('http'));
  });

  it('the public Service carries only the public port, and the operator port has a Service of its own', () => {
    expect(servicePorts(find(objects, 'Service', 'starsgate-gateway')).map((port) => port.targetPort)).toEqual([
      'http',
    ]);
    expect(servicePorts(find(objects, 'Service', 'starsgate-gateway-admin')).map((port) => port.targetPort)).toEqual([
      'admin',
    ]);
  });

  it('the public route (a Gateway API HTTPRoute, or an Ingress) reaches only the public Service', () => {
    // Production uses the gateway-api component; an Ingress (the ingress-nginx component) must do the same.
    const ingresses = objects.filter((object) => object.kind === 'Ingress');
    const routes = objects.filter((object) => object.kind === 'HTTPRoute');
    expect(routes.length).toBeGreaterThan(0);
    // An HTTPRoute names the Service port by number: the public Service's `http` port.
    const publicPort = servicePorts(find(objects, 'Service', 'starsgate-gateway')).find(
      (port) => port.targetPort === 'http',
    ) as unknown as { port: number };
    const routeBackends = routes.flatMap((route) =>
      (route.spec as { rules: Array<{ backendRefs: Array<{ name: string; port: number }> }> }).rules.flatMap((rule) =>
        rule.backendRefs.map((ref) => `${ref.name}:${ref.port === publicPort.port ? 'http' : ref.port}`),
      ),
    );
    expect(new Set(routeBackends)).toEqual(new Set(['starsgate-gateway:http']));
    const backends = ingresses.flatMap((ingress) => {
      const spec = ingress.spec as {
        defaultBackend?: { service: { name: string; port: { name?: string } } };
        rules?: Array<{ http?: { paths: Array<{ backend: { service: { name: string; port: { name?: string } } } }> } }>;
      };
      return [
        ...(spec.defaultBackend ? [spec.defaultBackend] : []),
        ...(spec.rules ?? []).flatMap((rule) => rule.http?.paths.map((path) => path.backend) ?? []),
      ].map((backend) => `${backend.service.name}:${backend.service.port.name}`);
    });
    expect(backends.filter((backend) => backend !== 'starsgate-gateway:http')).toEqual([]);
  });

  it('Prometheus scrapes the `admin` port, and only monitoring may reach it (never the ingress controller)', () => {
    const monitor = find(objects, 'ServiceMonitor', 'starsgate-gateway').spec as {
      selector: { matchLabels: Record<string, string> };
      endpoints: Array<{ port: string; path: string }>;
    };
    expect(monitor.endpoints.map((endpoint) => [endpoint.port, endpoint.path])).toEqual([['admin', '/metrics']]);
    expect(find(objects, 'Service', 'starsgate-gateway-admin').metadata.labels).toEqual(
      expect.objectContaining(monitor.selector.matchLabels),
    );
    const rules = (
      find(objects, 'NetworkPolicy', 'starsgate-gateway-ingress').spec as {
        ingress: Array<{
          from: Array<{ namespaceSelector: { matchLabels: Record<string, string> } }>;
          ports: Array<{ port: number }>;
        }>;
      }
    ).ingress;
    const admittedTo = (port: number) =>
      rules
        .filter((rule) => rule.ports.some((entry) => entry.port === port))
        .flatMap((rule) => rule.from.map((peer) => peer.namespaceSelector.matchLabels['kubernetes.io/metadata.name']));
    expect(admittedTo(containerPort('admin'))).toEqual(['monitoring']);
    // The Gateway's proxy namespace (the gateway-api component's parameter in production).
    expect(admittedTo(containerPort('http'))).toEqual(['gateway-system']);
  });
});
