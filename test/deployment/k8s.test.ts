import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PURCHASE_QUEUE, WEBHOOK_QUEUE } from '@starsgate/platform';
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

const WORKLOADS = new Set(['Deployment', 'StatefulSet', 'Job', 'CronJob']);

/** Each workload's one Secret (by the name before a generator's hash): no pod sees another component's. */
const OWN_SECRET: Record<string, string> = {
  'starsgate-gateway': 'starsgate-gateway',
  'starsgate-worker': 'starsgate-worker',
  'starsgate-migrate': 'starsgate-migrate',
  'starsgate-doctor': 'starsgate-worker',
  'starsgate-postgres': 'starsgate-postgres',
};

/** A Secret's name as the manifests wrote it: the generated ones carry `-<hash>`. */
const unhashed = (name: string) => name.replace(/-[a-z0-9]{10}$/, '');

/** Variables a container deliberately does without, and why. */
const LEFT_OUT: Record<string, Record<string, string>> = {
  gateway: {
    FRAGMENT_COOKIES: 'the paying Fragment login stays with the worker; the gateway reads with FRAGMENT_READ_COOKIES',
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
  const migrateJob = find(objects, 'Job', 'starsgate-migrate');
  const gatewayContainer = podSpec(gateway).containers.find((container) => container.name === 'gateway')!;
  const workerContainer = podSpec(worker).containers.find((container) => container.name === 'worker')!;
  const migrateContainer = podSpec(migrateJob).containers[0]!;

  it('renders objects that each validate against their JSON schema', () => {
    const results = validateAgainstSchemas(objects);
    expect(results).toHaveLength(objects.length);
    expect(results.filter((result) => result.errors.length > 0)).toEqual([]);
    // Only these kinds have no schema package here; k8s-components.test.ts asserts their fields.
    expect(new Set(results.filter((result) => !result.schema).map((result) => result.kind))).toEqual(
      new Set(overlay === 'production' ? ['HTTPRoute', 'ExternalSecret'] : []),
    );
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
    check('migrate', migrateContainer);
    if (overlay === 'sandbox')
      check('sandbox', podSpec(find(objects, 'StatefulSet', 'starsgate-sandbox')).containers[0]!);
  });

  it('configures only variables the apps read', () => {
    const read = new Set([...deployedVariables('gateway'), ...deployedVariables('worker')]);
    expect(Object.keys(configData(objects)).filter((key) => !read.has(key))).toEqual([]);
  });

  it('takes secrets by reference only, one Secret per component; the demo overlay alone generates its public ones', () => {
    const secrets = objects.filter((object) => object.kind === 'Secret');
    // The demo Secrets are generated (each name carries the hash of its data); production's come from
    // ExternalSecrets (k8s/components/external-secrets) or are created out of band.
    expect(secrets.map((secret) => unhashed(secret.metadata.name)).sort()).toEqual(
      overlay === 'sandbox' ? ['starsgate-gateway', 'starsgate-migrate', 'starsgate-postgres', 'starsgate-worker'] : [],
    );
    for (const workload of workloads) {
      const names = new Set(secretReferences(podSpec(workload)).map((reference) => unhashed(reference.name)));
      const own = OWN_SECRET[workload.metadata.name];
      expect({ workload: workload.metadata.name, secrets: [...names] }).toEqual({
        workload: workload.metadata.name,
        secrets: own ? [own] : [],
      });
    }
    // No gateway or worker pod holds the tables owner's credential or the other's key.
    const keysOf = (workload: KubeObject) => secretReferences(podSpec(workload)).map((reference) => reference.key);
    expect(keysOf(gateway)).not.toEqual(expect.arrayContaining(['MIGRATION_DATABASE_URL']));
    expect(keysOf(worker)).not.toEqual(expect.arrayContaining(['MIGRATION_DATABASE_URL']));
    expect(keysOf(gateway)).not.toContain('STARSGATE_SECRET_KEY');
    expect(keysOf(gateway)).not.toContain('FRAGMENT_COOKIES');
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
    if (overlay === 'sandbox')
      for (const workload of workloads)
        for (const { name, key, optional } of secretReferences(podSpec(workload))) {
          const data = find(objects, 'Secret', name).data as Record<string, string>;
          if (!optional) expect({ name, key, present: key in data }).toEqual({ name, key, present: true });
        }
    if (overlay === 'production') {
      // Out-of-band Secrets: Reloader rolls each Deployment when the Secret its pods read changes.
      for (const deployment of [gateway, worker])
        expect((deployment.metadata.annotations as Record<string, string>)['secret.reloader.stakater.com/reload']).toBe(
          OWN_SECRET[deployment.metadata.name],
        );
    }
  });

  it('probes the gateway on /livez and /readyz through its operator port, which public traffic does not reach', () => {
    const port = gatewayContainer.ports!.find((candidate) => candidate.name === 'http')!;
    expect(port.containerPort).toBe(Number(envValue(gatewayContainer, 'PORT')));
    expect(gatewayContainer.readinessProbe!.httpGet).toEqual({ path: '/readyz', port: 'admin' });
    expect(gatewayContainer.livenessProbe!.httpGet).toEqual({ path: '/livez', port: 'admin' });
    expect(gatewayContainer.startupProbe!.httpGet).toEqual({ path: '/livez', port: 'admin' });
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

  it('migrates in one Job (an Argo CD PreSync hook) running the migrate image; no app pod has a migrate container', () => {
    for (const workload of [gateway, worker]) expect(podSpec(workload).initContainers).toBeUndefined();
    expect(migrateJob.metadata.annotations).toEqual(
      expect.objectContaining({
        'argocd.argoproj.io/hook': 'PreSync',
        'argocd.argoproj.io/hook-delete-policy': 'BeforeHookCreation',
      }),
    );
    expect(migrateContainer.image).toMatch(/(^|\/)(starsgate-|starsgate\/)migrate[:@]/);
    expect(migrateContainer.command).toBeUndefined();
    const job = migrateJob.spec as { backoffLimit: number; template: { spec: { restartPolicy: string } } };
    expect(job.template.spec.restartPolicy).toBe('Never');
    expect(job.backoffLimit).toBeGreaterThan(0);
  });

  it('migrates with the owner URL and runs the apps with the DML-only role it grants (docs/security.md, attack 13)', () => {
    const secretKey = (container: Container, name: string) =>
      container.env?.find((variable) => variable.name === name)?.valueFrom?.secretKeyRef?.key;
    expect(secretKey(migrateContainer, 'DATABASE_URL')).toBe('MIGRATION_DATABASE_URL');
    expect(secretKey(migrateContainer, 'SERVICE_DATABASE_URL')).toBe('DATABASE_URL');
    for (const container of [gatewayContainer, workerContainer]) {
      expect(secretKey(container, 'DATABASE_URL')).toBe('DATABASE_URL');
      expect(JSON.stringify(container.env)).not.toContain('MIGRATION_DATABASE_URL');
    }
    if (overlay === 'sandbox') {
      const secret = (name: string) => generated(objects, 'Secret', name).data as Record<string, string>;
      const role = (name: string, key: string) =>
        new URL(Buffer.from(secret(name)[key]!, 'base64').toString('utf8')).username;
      expect([
        role('starsgate-migrate', 'MIGRATION_DATABASE_URL'),
        role('starsgate-migrate', 'DATABASE_URL'),
        role('starsgate-gateway', 'DATABASE_URL'),
        role('starsgate-worker', 'DATABASE_URL'),
      ]).toEqual(['starsgate', 'starsgate_app', 'starsgate_app', 'starsgate_app']);
    }
  });

  it('runs the doctor contract check on a schedule from the cli image, with the worker Secret', () => {
    const doctor = find(objects, 'CronJob', 'starsgate-doctor');
    const container = podSpec(doctor).containers[0]!;
    expect(container.image).toMatch(/(^|\/)(starsgate-|starsgate\/)cli[:@]/);
    expect(container.args).toEqual(['starsgate', 'doctor', '--contract']);
    expect((doctor.spec as { concurrencyPolicy: string }).concurrencyPolicy).toBe('Forbid');
  });

  it("runs the full doctor, not the CronJob's contract check, where the docs promise every doctor line", () => {
    // The docs' full doctor in the cluster: the CronJob's Job printed as YAML, less the lines sed drops.
    const FULL =
      /create job --from=cronjob\/starsgate-doctor\s+doctor-now\s+--dry-run=client\s+-o\s+yaml\s*\\?\s*\|\s*sed\s+'\/([^/]+)\/d'\s*\|\s*kubectl apply -f -/;
    const jobTemplate = (find(objects, 'CronJob', 'starsgate-doctor').spec as { jobTemplate: unknown }).jobTemplate;
    for (const doc of ['operations.md', 'production-checklist.md', 'runbooks.md']) {
      const text = readFileSync(path.join(root, 'docs', doc), 'utf8');
      const commands = text.split(/(?=kubectl[^\n`]*create job --from=cronjob\/starsgate-doctor)/).slice(1);
      expect(commands.length).toBeGreaterThan(0);
      for (const command of commands) {
        const match = FULL.exec(command);
        expect({ doc, command: command.slice(0, 120), full: match !== null }).toMatchObject({ full: true });
        const dropped = new RegExp(match![1]!);
        const job = parse(
          stringify(jobTemplate)
            .split('\n')
            .filter((line) => !dropped.test(line))
            .join('\n'),
        ) as KubeObject;
        expect(podSpec(job).containers[0]!.args).toEqual(['starsgate', 'doctor']);
      }
    }
  });

  it('spreads the apps across zones and then nodes, and gives the worker a startup probe', () => {
    for (const workload of [gateway, worker]) {
      const spread = podSpec(workload).topologySpreadConstraints ?? [];
      expect(spread.map((constraint) => constraint.topologyKey)).toEqual([
        'topology.kubernetes.io/zone',
        'kubernetes.io/hostname',
      ]);
    }
    expect(workerContainer.startupProbe!.httpGet).toEqual({ path: '/livez', port: 'metrics' });
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
      } else expect(container.image).toMatch(/^(postgres|redis):\d+(\.\d+){0,2}-bookworm(@sha256:[0-9a-f]{64})?$/);
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
    // The ingress namespace is the ingress component's parameter (production: the Gateway API's).
    const ingressNamespace = overlay === 'production' ? 'gateway-system' : 'ingress-nginx';
    expect(spec(find(objects, 'NetworkPolicy', 'starsgate-gateway-ingress')).ingress).toEqual([
      {
        from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': ingressNamespace } } }],
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

  it("lets the apps reach the PgBouncer of docs/deployment.md's connection budget (its listen_port)", () => {
    const budget = readFileSync(path.join(root, 'docs', 'deployment.md'), 'utf8').split('## Connection budget')[1]!;
    const ini = /```ini\n([\s\S]*?)```/.exec(budget)![1]!;
    // PgBouncer's own default is 6432.
    const listenPort = Number(/^listen_port\s*=\s*(\d+)/m.exec(ini)?.[1] ?? 6432);
    const egress = find(objects, 'NetworkPolicy', 'starsgate-apps-egress').spec as {
      egress: Array<{ ports: Array<{ port: number }> }>;
    };
    expect(egress.egress.flatMap((rule) => rule.ports.map((entry) => entry.port))).toContain(listenPort);
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
        ['redis', `${prefix}:${WEBHOOK_QUEUE}:wait`],
        ['prometheus', undefined],
      ]);
      for (const trigger of scaled.triggers.filter((candidate) => candidate.type === 'redis'))
        find(objects, 'TriggerAuthentication', trigger.authenticationRef.name);
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
          secretTargetRef: Array<{ key: string; name: string }>;
        }
      ).secretTargetRef) {
        expect(entry.name).toBe('starsgate-keda');
        keys.add(entry.key);
      }
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
        secret: generated(objects, 'Secret', 'starsgate-gateway').metadata.name,
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
    edit('overlays/sandbox/demo-secrets/gateway.env', 'TONCENTER_API_KEY=\n', 'TONCENTER_API_KEY=changed\n');
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
