import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PURCHASE_QUEUE } from '@starsgate/platform';
import type { ProcessName } from '@starsgate/config';
import { deployedVariables } from '../../scripts/config/process-variables';
import { dockerfileTargets } from './dockerfile';
import { root } from './repo-root';
import {
  configData,
  find,
  generated,
  OVERLAYS,
  podSpec,
  render,
  validateAgainstSchemas,
  renderKustomization,
  type Container,
  type KubeObject,
  type PodSpec,
} from './k8s-manifests';

const WORKLOADS = new Set(['Deployment', 'StatefulSet', 'Job']);

/** Variables a container deliberately does without, and why. */
const LEFT_OUT: Record<string, Record<string, string>> = {
  gateway: {
    FRAGMENT_COOKIES: 'the paying Fragment login stays with the worker; the gateway reads with FRAGMENT_READ_COOKIES',
  },
  migrate: {
    GATEWAY_DATABASE_URL:
      'opt-in: the manifests keep one service role until the gateway gets a Secret of its own (docs/security.md, attack 18)',
  },
};

/** Names a container gets: its env, every key of the ConfigMap it loads, and Secret references. */
function suppliedVariables(container: Container, objects: KubeObject[]): Set<string> {
  const names = new Set((container.env ?? []).map((variable) => variable.name));
  for (const source of container.envFrom ?? []) {
    if (source.configMapRef) {
      expect(source.configMapRef.name).toBe(generated(objects, 'ConfigMap', 'starsgate-config').metadata.name);
      for (const key of Object.keys(configData(objects))) names.add(key);
    }
    if (source.secretRef) throw new Error(`${container.name}: envFrom secretRef hides which keys it needs`);
  }
  return names;
}

function secretReferences(spec: PodSpec): Array<{ name: string; key: string; optional: boolean }> {
  return [...spec.containers, ...(spec.initContainers ?? [])].flatMap((container) =>
    (container.env ?? []).flatMap(({ valueFrom }) =>
      valueFrom?.secretKeyRef
        ? [
            {
              name: valueFrom.secretKeyRef.name,
              key: valueFrom.secretKeyRef.key,
              optional: Boolean(valueFrom.secretKeyRef.optional),
            },
          ]
        : [],
    ),
  );
}

const envValue = (container: Container, name: string): string | undefined =>
  container.env?.find((variable) => variable.name === name)?.value;

const seconds = (milliseconds: string | undefined): number => Number(milliseconds) / 1000;

describe.each(OVERLAYS)('k8s overlay %s', (overlay) => {
  const objects = render(overlay);
  const namespace = objects.find((object) => object.kind === 'Namespace')!;
  const workloads = objects.filter((object) => WORKLOADS.has(object.kind));
  const gateway = find(objects, 'Deployment', 'starsgate-gateway');
  const worker = find(objects, 'Deployment', 'starsgate-worker');
  const gatewayContainer = podSpec(gateway).containers.find((container) => container.name === 'gateway')!;
  const workerContainer = podSpec(worker).containers.find((container) => container.name === 'worker')!;

  it('renders objects that each validate against their JSON schema', () => {
    const results = validateAgainstSchemas(objects);
    expect(results).toHaveLength(objects.length);
    expect(results.filter((result) => result.errors.length > 0)).toEqual([]);
  });

  it('puts every namespaced object in the overlay namespace, and names are unique per kind', () => {
    expect(namespace.metadata.name).toMatch(/^starsgate/);
    for (const object of objects.filter((candidate) => candidate.kind !== 'Namespace'))
      expect(`${object.kind}/${object.metadata.name}@${object.metadata.namespace}`).toBe(
        `${object.kind}/${object.metadata.name}@${namespace.metadata.name}`,
      );
    const keys = objects.map((object) => `${object.kind}/${object.metadata.name}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('gives every container the variables its app reads (ConfigMap, value or Secret reference)', () => {
    const check = (app: ProcessName, container: Container) => {
      const supplied = suppliedVariables(container, objects);
      const missing = [...deployedVariables(app)].filter((name) => !supplied.has(name) && !LEFT_OUT[app]?.[name]);
      expect({ app, missing }).toEqual({ app, missing: [] });
    };
    check('gateway', gatewayContainer);
    check('worker', workerContainer);
    for (const workload of [gateway, worker]) check('migrate', podSpec(workload).initContainers![0]!);
    if (overlay === 'sandbox')
      check('sandbox', podSpec(find(objects, 'StatefulSet', 'starsgate-sandbox')).containers[0]!);
  });

  it('configures only variables the apps read', () => {
    const read = new Set([...deployedVariables('gateway'), ...deployedVariables('worker')]);
    expect(Object.keys(configData(objects)).filter((key) => !read.has(key))).toEqual([]);
  });

  it('takes secrets by reference only; the demo overlay alone generates its public demo Secret', () => {
    const secrets = objects.filter((object) => object.kind === 'Secret');
    // The demo Secret is generated (its name carries the hash of its data); production's is created out of band.
    const secretName =
      overlay === 'sandbox' ? generated(objects, 'Secret', 'starsgate-secrets').metadata.name : 'starsgate-secrets';
    expect(secrets.map((secret) => secret.metadata.name)).toEqual(overlay === 'sandbox' ? [secretName] : []);
    const references = workloads.flatMap((workload) => secretReferences(podSpec(workload)));
    expect(new Set(references.map((reference) => reference.name))).toEqual(new Set([secretName]));
    for (const container of workloads.flatMap((workload) => podSpec(workload).containers))
      for (const variable of container.env ?? [])
        if (
          /SECRET|COOKIES|PASSWORD|API_KEY|DATABASE_URL|REDIS_URL/.test(variable.name) &&
          variable.name !== 'POSTGRES_DB'
        )
          expect({ variable: variable.name, literal: variable.value }).toEqual({
            variable: variable.name,
            literal: undefined,
          });
    if (overlay === 'sandbox') {
      const data = secrets[0]!.data as Record<string, string>;
      for (const { key, optional } of references)
        if (!optional) expect({ key, present: key in data }).toEqual({ key, present: true });
    }
  });

  it('probes the gateway on /livez and /readyz through a declared port, and the app listens on it', () => {
    const port = gatewayContainer.ports!.find((candidate) => candidate.name === 'http')!;
    expect(port.containerPort).toBe(Number(envValue(gatewayContainer, 'PORT')));
    expect(gatewayContainer.readinessProbe!.httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(gatewayContainer.livenessProbe!.httpGet).toEqual({ path: '/livez', port: 'http' });
    expect(gatewayContainer.startupProbe!.httpGet).toEqual({ path: '/livez', port: 'http' });
    const service = find(objects, 'Service', 'starsgate-gateway');
    expect((service.spec as { ports: Array<{ targetPort: string }> }).ports.map((entry) => entry.targetPort)).toEqual([
      'http',
    ]);
    expect((service.spec as { selector: Record<string, string> }).selector).toEqual(
      (gateway.spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels,
    );
    // The operator listener: declared, where ADMIN_PORT says, behind its own Service.
    const admin = gatewayContainer.ports!.find((candidate) => candidate.name === 'admin')!;
    expect(admin.containerPort).toBe(Number(envValue(gatewayContainer, 'ADMIN_PORT')));
    const adminService = find(objects, 'Service', 'starsgate-gateway-admin');
    expect(
      (adminService.spec as { ports: Array<{ targetPort: string }> }).ports.map((entry) => entry.targetPort),
    ).toEqual(['admin']);
    expect((adminService.spec as { selector: Record<string, string> }).selector).toEqual(
      (gateway.spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels,
    );
  });

  it('migrates before either app starts: an init container running the migrate image (advisory-locked)', () => {
    for (const workload of [gateway, worker]) {
      const init = podSpec(workload).initContainers ?? [];
      expect(init.map((container) => container.name)).toEqual(['migrate']);
      expect(init[0]!.image).toMatch(/(^|\/)(starsgate-|starsgate\/)migrate[:@]/);
      expect(init[0]!.command).toBeUndefined();
    }
  });

  it('migrates with the owner URL and runs the apps with the DML-only role it grants (docs/security.md, attack 13)', () => {
    const secretKey = (container: Container, name: string) =>
      container.env?.find((variable) => variable.name === name)?.valueFrom?.secretKeyRef?.key;
    for (const workload of [gateway, worker]) {
      const [migrate] = podSpec(workload).initContainers!;
      expect(secretKey(migrate!, 'DATABASE_URL')).toBe('MIGRATION_DATABASE_URL');
      expect(secretKey(migrate!, 'SERVICE_DATABASE_URL')).toBe('DATABASE_URL');
    }
    for (const container of [gatewayContainer, workerContainer]) {
      expect(secretKey(container, 'DATABASE_URL')).toBe('DATABASE_URL');
      expect(JSON.stringify(container.env)).not.toContain('MIGRATION_DATABASE_URL');
    }
    if (overlay === 'sandbox') {
      const data = generated(objects, 'Secret', 'starsgate-secrets').data as Record<string, string>;
      const role = (key: string) => new URL(Buffer.from(data[key]!, 'base64').toString('utf8')).username;
      expect([role('MIGRATION_DATABASE_URL'), role('DATABASE_URL')]).toEqual(['starsgate', 'starsgate_app']);
    }
  });

  it('lets the drain finish before SIGKILL: grace period ≥ preStop pause + SHUTDOWN_TIMEOUT_MS + margin', () => {
    const pause = Number(gatewayContainer.lifecycle!.preStop!.exec!.command[1]);
    expect(pause).toBeGreaterThan(0);
    expect(podSpec(gateway).terminationGracePeriodSeconds).toBeGreaterThanOrEqual(
      pause + seconds(envValue(gatewayContainer, 'SHUTDOWN_TIMEOUT_MS')) + 5,
    );
    expect(podSpec(worker).terminationGracePeriodSeconds).toBeGreaterThanOrEqual(
      seconds(envValue(workerContainer, 'SHUTDOWN_TIMEOUT_MS')) + 5,
    );
  });

  it('runs every pod unprivileged: non-root, read-only root, no escalation, no capabilities, requests and limits', () => {
    for (const workload of workloads) {
      const spec = podSpec(workload);
      expect({
        pod: workload.metadata.name,
        ...spec.securityContext,
        automount: spec.automountServiceAccountToken,
      }).toEqual(
        expect.objectContaining({
          pod: workload.metadata.name,
          runAsNonRoot: true,
          seccompProfile: { type: 'RuntimeDefault' },
          automount: false,
        }),
      );
      for (const container of [...spec.containers, ...(spec.initContainers ?? [])]) {
        expect({ container: container.name, ...container.securityContext }).toEqual({
          container: container.name,
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        });
        // Our images' ENTRYPOINT (RLIMIT_CORE 0, Dockerfile) runs: no container replaces it.
        if (container.image.includes('starsgate-'))
          expect({ container: container.name, command: container.command }).toEqual({
            container: container.name,
            command: undefined,
          });
        expect(Object.keys(container.resources?.requests ?? {}).sort()).toEqual(['cpu', 'memory']);
        expect(container.resources?.limits?.memory).toBeDefined();
      }
    }
  });

  it('runs only images built from the Dockerfile targets (or pinned third-party images)', () => {
    const targets = dockerfileTargets();
    for (const container of workloads.flatMap((workload) => [
      ...podSpec(workload).containers,
      ...(podSpec(workload).initContainers ?? []),
    ])) {
      const ours = /(?:^|\/)(?:starsgate-|starsgate\/)([a-z]+):([\w.-]+)$/.exec(container.image);
      if (ours) {
        expect({ image: container.image, target: targets.has(ours[1]!) }).toEqual({
          image: container.image,
          target: true,
        });
        expect(ours[2]).not.toBe('latest');
      } else expect(container.image).toMatch(/^(postgres|redis):\d+\.\d+(\.\d+)?-/);
    }
  });

  it('scales the gateway on CPU and keeps pods through disruptions', () => {
    const hpa = find(objects, 'HorizontalPodAutoscaler', 'starsgate-gateway').spec as {
      scaleTargetRef: { kind: string; name: string };
      minReplicas: number;
      maxReplicas: number;
      metrics: Array<{ resource: { name: string } }>;
    };
    expect(hpa.scaleTargetRef).toEqual(expect.objectContaining({ kind: 'Deployment', name: 'starsgate-gateway' }));
    expect(hpa.metrics.map((metric) => metric.resource.name)).toEqual(['cpu']);
    expect(hpa.maxReplicas).toBeGreaterThan(hpa.minReplicas);
    for (const name of ['starsgate-gateway', 'starsgate-worker']) {
      const selector = (find(objects, 'PodDisruptionBudget', name).spec as { selector: { matchLabels: unknown } })
        .selector;
      expect(selector.matchLabels).toEqual({ 'app.kubernetes.io/name': name });
    }
  });

  it('denies all traffic by default, lets only the gateway take ingress, and lets the apps out to DNS, PostgreSQL, Redis and HTTPS', () => {
    const policies = objects.filter((object) => object.kind === 'NetworkPolicy');
    const spec = (policy: KubeObject) =>
      policy.spec as {
        podSelector: { matchLabels?: Record<string, string>; matchExpressions?: unknown[] };
        policyTypes: string[];
        ingress?: Array<{ from?: unknown[]; ports: Array<{ port: number }> }>;
        egress?: Array<{ ports: Array<{ port: number; protocol: string }> }>;
      };
    const denyAll = policies.find((policy) => Object.keys(spec(policy).podSelector).length === 0)!;
    expect(spec(denyAll).policyTypes.sort()).toEqual(['Egress', 'Ingress']);
    expect(spec(denyAll).ingress ?? []).toEqual([]);
    expect(spec(denyAll).egress ?? []).toEqual([]);
    // No pod takes ingress from anywhere (a rule without `from`): the gateway's public port only from
    // the ingress controller, so the one X-Forwarded-For hop TRUST_PROXY believes is the ingress's;
    // its operator port only from monitoring.
    expect(policies.filter((policy) => spec(policy).ingress?.some((rule) => !rule.from))).toEqual([]);
    expect(spec(find(objects, 'NetworkPolicy', 'starsgate-gateway-ingress')).ingress).toEqual([
      {
        from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } }],
        ports: [{ port: 8080, protocol: 'TCP' }],
      },
      {
        from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }],
        ports: [{ port: 8081, protocol: 'TCP' }],
      },
    ]);
    // TRUST_PROXY never trusts every hop.
    expect(configData(objects).TRUST_PROXY).toMatch(/^(false|\d+|[0-9a-f.:/,]+)$/);
    if (overlay === 'production') expect(configData(objects).TRUST_PROXY).toBe('1');
    // The worker takes only Prometheus's scrape of its metrics port, from the monitoring namespace.
    expect(spec(find(objects, 'NetworkPolicy', 'starsgate-worker-metrics-ingress')).ingress).toEqual([
      {
        from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }],
        ports: [{ port: 9464, protocol: 'TCP' }],
      },
    ]);
    const egressPorts = spec(find(objects, 'NetworkPolicy', 'starsgate-apps-egress')).egress!.flatMap((rule) =>
      rule.ports.map((entry) => entry.port),
    );
    expect(new Set(egressPorts)).toEqual(new Set([53, 5432, 6379, 443]));
  });

  if (overlay === 'production') {
    it('scales workers with KEDA on the BullMQ keys of the purchase queue, under the configured prefix', () => {
      const prefix = configData(objects).BULLMQ_PREFIX!;
      const scaled = find(objects, 'ScaledObject', 'starsgate-worker').spec as {
        scaleTargetRef: { name: string };
        minReplicaCount: number;
        maxReplicaCount: number;
        triggers: Array<{ type: string; metadata: Record<string, string>; authenticationRef: { name: string } }>;
      };
      expect(scaled.scaleTargetRef.name).toBe('starsgate-worker');
      expect(scaled.minReplicaCount).toBeGreaterThanOrEqual(1);
      expect(scaled.maxReplicaCount).toBeGreaterThan(scaled.minReplicaCount);
      expect(scaled.triggers.map((trigger) => [trigger.type, trigger.metadata.listName])).toEqual([
        ['redis', `${prefix}:${PURCHASE_QUEUE}:wait`],
        ['redis', `${prefix}:${PURCHASE_QUEUE}:prioritized`],
      ]);
      for (const trigger of scaled.triggers) find(objects, 'TriggerAuthentication', trigger.authenticationRef.name);
    });

    it("has Prometheus scrape the gateway's operator Service on its metrics path, as job starsgate-gateway", () => {
      const monitor = find(objects, 'ServiceMonitor', 'starsgate-gateway').spec as {
        jobLabel: string;
        selector: { matchLabels: Record<string, string> };
        endpoints: Array<{ port: string; path: string }>;
      };
      const service = find(objects, 'Service', 'starsgate-gateway-admin');
      expect(service.metadata.labels).toEqual(expect.objectContaining(monitor.selector.matchLabels));
      expect(service.metadata.labels?.[monitor.jobLabel]).toBe('starsgate-gateway');
      // Only the operator Service: a monitor that also selected the public one would scrape it for nothing.
      const selected = objects.filter(
        (object) =>
          object.kind === 'Service' &&
          Object.entries(monitor.selector.matchLabels).every(([key, value]) => object.metadata.labels?.[key] === value),
      );
      expect(selected.map((object) => object.metadata.name)).toEqual(['starsgate-gateway-admin']);
      expect(monitor.endpoints).toEqual([expect.objectContaining({ port: 'admin', path: '/metrics' })]);
    });

    it('names every Secret key it references in the deployment guide, so an operator knows what to create', () => {
      const readme = readFileSync(path.join(root, 'docs/deployment.md'), 'utf8');
      const keys = new Set(
        workloads.flatMap((workload) => secretReferences(podSpec(workload)).map((reference) => reference.key)),
      );
      for (const entry of (
        find(objects, 'TriggerAuthentication', 'starsgate-redis').spec as {
          secretTargetRef: Array<{ key: string }>;
        }
      ).secretTargetRef)
        keys.add(entry.key);
      for (const key of keys) expect({ key, documented: readme.includes(key) }).toEqual({ key, documented: true });
    });
  }

  if (overlay === 'sandbox') {
    it('runs the sandbox upstream and in-cluster PostgreSQL and Redis (noeviction, append-only) for the apps', () => {
      const config = configData(objects);
      expect(config.TONCENTER_URL).toBe('http://starsgate-sandbox:8090/toncenter');
      expect(config.FRAGMENT_BASE_URL).toBe('http://starsgate-sandbox:8090/fragment');
      const redis = podSpec(find(objects, 'StatefulSet', 'starsgate-redis')).containers[0]!;
      expect(redis.args!.join(' ')).toContain('--maxmemory-policy noeviction');
      expect(redis.args!.join(' ')).toContain('--appendonly yes');
      const sandbox = podSpec(find(objects, 'StatefulSet', 'starsgate-sandbox')).containers[0]!;
      expect(sandbox.ports![0]!.containerPort).toBe(Number(envValue(sandbox, 'SANDBOX_PORT')));
      expect(sandbox.livenessProbe!.httpGet!.path).toBe('/livez');
      expect(objects.some((object) => object.kind === 'ScaledObject' || object.kind === 'ServiceMonitor')).toBe(false);
    });
  }
});

test('a settings change renames the generated ConfigMap and Secret, so the pods roll by themselves', () => {
  const copy = mkdtempSync(path.join(tmpdir(), 'k8s-'));
  try {
    cpSync(path.join(root, 'k8s'), copy, { recursive: true });
    const names = () => {
      const objects = renderKustomization(path.join(copy, 'overlays', 'sandbox'));
      const template = podSpec(find(objects, 'Deployment', 'starsgate-gateway'));
      const container = template.containers.find((candidate) => candidate.name === 'gateway')!;
      return {
        configMap: generated(objects, 'ConfigMap', 'starsgate-config').metadata.name,
        secret: generated(objects, 'Secret', 'starsgate-secrets').metadata.name,
        envFrom: container.envFrom!.map((source) => source.configMapRef?.name),
        secretRefs: new Set(secretReferences(template).map((reference) => reference.name)),
      };
    };
    const before = names();
    expect(before.envFrom).toEqual([before.configMap]);
    expect(before.secretRefs).toEqual(new Set([before.secret]));

    const edit = (file: string, from: string, to: string) => {
      const text = readFileSync(path.join(copy, file), 'utf8');
      expect(text).toContain(from);
      writeFileSync(path.join(copy, file), text.replace(from, to));
    };
    edit('base/config.env', 'LOG_LEVEL=info', 'LOG_LEVEL=debug');
    edit('overlays/sandbox/demo-secrets.env', 'TONCENTER_API_KEY=\n', 'TONCENTER_API_KEY=changed\n');
    const after = names();
    expect(after.configMap).not.toBe(before.configMap);
    expect(after.secret).not.toBe(before.secret);
    // The pod template names the new objects: a changed template is a rollout.
    expect(after.envFrom).toEqual([after.configMap]);
    expect(after.secretRefs).toEqual(new Set([after.secret]));
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
});
