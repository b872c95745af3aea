import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { parse } from 'yaml';
import type { ProcessName } from '@starsgate/config';
import { loadFingerprintKeys, loadKeyRing, loadSealer } from '@starsgate/db';
import { deployedVariables, OPENTELEMETRY_VARIABLES } from '../../scripts/config/process-variables';
import { dockerfileTargets } from './dockerfile';
import { documentedVariables, exampleValues } from './env-example';
import { root } from './repo-root';

interface Service {
  build?: { context: string; target: string };
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string; required?: boolean }>;
  healthcheck?: { test: string[] };
  ports?: string[];
  volumes?: string[];
  profiles?: string[];
  restart?: string;
  container_name?: string;
  stop_grace_period?: string;
  read_only?: boolean;
  cap_drop?: string[];
}

const text = readFileSync(path.join(root, 'docker-compose.yml'), 'utf8');
const compose = parse(text, { merge: true }) as { services: Record<string, Service>; volumes: Record<string, unknown> };
const services = compose.services;
const APP_SERVICES: ProcessName[] = ['gateway', 'worker', 'sandbox', 'migrate'];
const seconds = (duration: string) => Number(/^(\d+)s$/.exec(duration)![1]);

/**
 * Compose's interpolation of one value from an environment (.env): `${NAME}`, `${NAME:-default}`
 * (unset or empty), `${NAME-default}` (unset), `${NAME:?message}` (an error when unset or empty).
 */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(
    /\$\{([A-Z][A-Z0-9_]*)(?:(:?)([-?])([^}]*))?\}/g,
    (_match, name: string, colon, kind, rest: string) => {
      const current = env[name];
      const missing = current === undefined || (colon === ':' && current === '');
      if (kind === '?' && missing) throw new Error(`${name}: ${rest}`);
      return missing && kind === '-' ? rest : (current ?? '');
    },
  );
}
const resolveEnvironment = (environment: Record<string, string>, env: Record<string, string>) =>
  Object.fromEntries(Object.entries(environment).map(([key, value]) => [key, interpolate(String(value), env)]));
const resolveList = (values: string[], env: Record<string, string>) => values.map((value) => interpolate(value, env));

describe('docker-compose.yml', () => {
  it('validates against the compose-spec JSON schema (as shipped by dclint)', () => {
    const schema = JSON.parse(
      readFileSync(path.join(root, 'node_modules/dclint/schemas/compose.schema.json'), 'utf8'),
    ) as Record<string, unknown>;
    delete schema.$schema;
    const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
    // Validated as written (merge keys resolved, ${…} left for compose to interpolate).
    expect(validate(compose) ? [] : validate.errors).toEqual([]);
  });

  it('runs PostgreSQL and Redis (append-only, noeviction) with health checks and volumes', () => {
    expect(Object.keys(services).sort()).toEqual(['gateway', 'migrate', 'postgres', 'redis', 'sandbox', 'worker']);
    const redisCommand = services.redis!.command!.join(' ');
    expect(redisCommand).toContain('--appendonly yes');
    expect(redisCommand).toContain('--maxmemory-policy noeviction');
    for (const name of ['postgres', 'redis']) {
      expect(services[name]!.healthcheck!.test.length).toBeGreaterThan(0);
      const volume = services[name]!.volumes![0]!.split(':')[0]!;
      expect(compose.volumes).toHaveProperty(volume);
      // A release line's tag (it follows the current patch release) or an exact one; digests are the
      // release's check (scripts/release/check-image-pins.ts).
      expect(services[name]!.image).toMatch(/^(postgres|redis):\d+(\.\d+){0,2}-bookworm(@sha256:[0-9a-f]{64})?$/);
    }
  });

  it("passes no image version the Dockerfile would refuse (only package.json's version, or none)", () => {
    const version = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
    for (const name of APP_SERVICES) {
      const args = (services[name]!.build as { args?: Record<string, string> }).args ?? {};
      const passed = args.VERSION === undefined ? undefined : interpolate(args.VERSION, exampleValues());
      expect({ name, passed: passed === undefined || passed === version }).toEqual({ name, passed: true });
    }
  });

  it('builds each app from its Dockerfile target and starts it with the image command', () => {
    const targets = dockerfileTargets();
    for (const name of APP_SERVICES) {
      const service = services[name]!;
      expect({ name, target: service.build?.target }).toEqual({ name, target: name });
      expect(targets.has(name)).toBe(true);
      expect(service.command).toBeUndefined();
      expect(service.image).toMatch(new RegExp(`^starsgate-${name}:`));
      expect({ name, read_only: service.read_only, cap_drop: service.cap_drop }).toEqual({
        name,
        read_only: true,
        cap_drop: ['ALL'],
      });
    }
  });

  it('migrates once before the apps start', () => {
    expect(services.migrate!.restart).toBe('no');
    expect(services.migrate!.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    for (const name of ['gateway', 'worker'])
      expect(services[name]!.depends_on!.migrate).toEqual({ condition: 'service_completed_successfully' });
  });

  it('scales the worker (`--scale worker=3`): no fixed name, no host port', () => {
    expect(services.worker!.container_name).toBeUndefined();
    expect(services.worker!.ports).toBeUndefined();
  });

  it('puts the sandbox behind its profile, and nothing else', () => {
    expect(services.sandbox!.profiles).toEqual(['sandbox']);
    for (const name of Object.keys(services).filter((service) => service !== 'sandbox'))
      expect(services[name]!.profiles).toBeUndefined();
    for (const name of ['gateway', 'worker'])
      expect(services[name]!.depends_on!.sandbox).toEqual({ condition: 'service_healthy', required: false });
    expect(services.gateway!.environment!.TONCENTER_URL).toBe('${TONCENTER_URL:-http://sandbox:8090/toncenter}');
    expect(services.gateway!.environment!.FRAGMENT_BASE_URL).toBe('${FRAGMENT_BASE_URL:-http://sandbox:8090/fragment}');
  });

  it('hands every app every variable it reads', () => {
    for (const name of APP_SERVICES) {
      const supplied = new Set(Object.keys(services[name]!.environment ?? {}));
      const missing = [...deployedVariables(name)].filter((key) => !supplied.has(key));
      expect({ name, missing }).toEqual({ name, missing: [] });
    }
  });

  it('reads from .env only variables .env.example documents; the gateway never gets the secret key', () => {
    const documented = documentedVariables();
    const interpolated = new Set([...text.matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)].map((match) => match[1]!));
    expect([...interpolated].filter((name) => !documented.has(name))).toEqual([]);
    // The gateway seals only: it never gets the key that opens wallet secrets (docs/security.md).
    expect(services.gateway!.environment!.STARSGATE_SECRET_KEY).toBeUndefined();
  });

  it('starts the sandbox demo with zero edits: a copied .env.example (or none) resolves every variable', () => {
    for (const env of [exampleValues(), {}]) {
      const resolved = (service: string) => resolveEnvironment(services[service]!.environment ?? {}, env);
      const worker = resolved('worker');
      const gateway = resolved('gateway');
      expect(worker.NODE_ENV).toBe('development');
      // The published demo keys: accepted in development, refused in production (docs/security.md, attack 16).
      const loaders = (production: boolean) => {
        const common = { dataDir: '/nonexistent', allowGenerated: !production, warn: () => undefined };
        return [
          () => loadKeyRing({ ...common, value: worker.STARSGATE_SECRET_KEY }),
          () => loadSealer({ ...common, production, sealKey: gateway.STARSGATE_SEAL_KEY, secretKey: undefined }),
          () => loadFingerprintKeys({ ...common, value: gateway.STARSGATE_FINGERPRINT_KEY }),
        ];
      };
      for (const load of loaders(false)) expect(load).not.toThrow();
      for (const load of loaders(true)) expect(load).toThrow(/published sandbox key/);
      // Redis takes a password, and the apps' URL carries the same one.
      const redis = resolveList(services.redis!.command!, env);
      const password = redis[redis.indexOf('--requirepass') + 1];
      expect(password).toBeTruthy();
      expect(new URL(worker.REDIS_URL!).password).toBe(password);
      expect(resolved('redis').REDISCLI_AUTH).toBe(password);
      // PostgreSQL: the owner's password is the one migrate uses, the apps' role the one migrate grants.
      const owner = new URL(resolved('migrate').DATABASE_URL!);
      expect(owner.password).toBe(resolved('postgres').POSTGRES_PASSWORD);
      expect(new URL(worker.DATABASE_URL!).password).toBe(new URL(resolved('migrate').SERVICE_DATABASE_URL!).password);
    }
    // As shipped, .env.example is the demo: the sandbox's login for the worker, its upstreams.
    const worker = resolveEnvironment(services.worker!.environment!, exampleValues());
    expect(worker.FRAGMENT_COOKIES).toMatch(/^stel_ssid=/);
    expect(worker.TONCENTER_URL).toBe('http://sandbox:8090/toncenter');
  });

  it('says the same in its header, in .env.example and in docs/deployment.md: copy, then up, no edit', () => {
    const header = text.slice(0, text.indexOf('\nname:'));
    const guide = readFileSync(path.join(root, 'docs/deployment.md'), 'utf8');
    const example = readFileSync(path.join(root, '.env.example'), 'utf8');
    for (const [where, words] of [
      ['docker-compose.yml', header],
      ['docs/deployment.md', guide],
      ['.env.example', example],
    ] as const) {
      expect({ where, copy: words.includes('cp .env.example .env') }).toEqual({ where, copy: true });
      expect({ where, up: /docker compose --profile sandbox up/.test(words) }).toEqual({ where, up: true });
      expect({ where, production: words.includes('NODE_ENV=production') }).toEqual({ where, production: true });
      expect({ where, noEdit: /no edit|nothing to edit/.test(words) }).toEqual({ where, noEdit: true });
    }
  });

  it('passes the OpenTelemetry variables through to the gateway and the worker', () => {
    for (const name of Object.keys(OPENTELEMETRY_VARIABLES))
      for (const service of ['gateway', 'worker'])
        expect({ service, name, value: services[service]!.environment![name] }).toEqual({
          service,
          name,
          value: `\${${name}:-}`,
        });
  });

  it('migrates as the owner and runs the apps as the DML-only role migrate grants (docs/security.md, attack 13)', () => {
    const role = (url: string | undefined) => /^postgres:\/\/([^:@]+)[:@]/.exec(url ?? '')?.[1];
    const owner = services.migrate!.environment!.DATABASE_URL;
    const serviceUrl = services.migrate!.environment!.SERVICE_DATABASE_URL;
    expect(role(owner)).toBe(services.postgres!.environment!.POSTGRES_USER);
    expect(owner).toContain('${POSTGRES_PASSWORD:-');
    expect(role(serviceUrl)).toBe('starsgate_app');
    expect(serviceUrl).toContain('${POSTGRES_APP_PASSWORD:-');
    for (const name of ['gateway', 'worker']) {
      expect(services[name]!.environment!.DATABASE_URL).toBe(serviceUrl);
      expect(JSON.stringify(services[name]!.environment)).not.toContain('POSTGRES_PASSWORD:');
    }
  });

  it('takes no address from a copied .env.example that would point a container at itself', () => {
    const values = exampleValues();
    const interpolated = new Set([...text.matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)].map((match) => match[1]!));
    const local = [...interpolated].filter((name) => /127\.0\.0\.1|localhost/.test(values[name] ?? ''));
    expect(local).toEqual([]);
  });

  it('publishes the ports the apps listen on', () => {
    expect(services.gateway!.environment!.PORT).toBe('8080');
    expect(services.gateway!.environment!.ADMIN_PORT).toBe('8081');
    // The operator listener only on the host's loopback (docs/security.md, attack 15).
    expect(services.gateway!.ports).toEqual([
      '${STARSGATE_HTTP_PORT:-8080}:8080',
      '127.0.0.1:${STARSGATE_ADMIN_PORT:-8081}:8081',
    ]);
    expect(services.sandbox!.environment!.SANDBOX_PORT).toBe('8090');
    expect(services.sandbox!.ports).toEqual(['${STARSGATE_SANDBOX_PORT:-8090}:8090']);
  });

  it('gives the gateway and the worker longer to stop than their drain takes', () => {
    for (const name of ['gateway', 'worker']) {
      const service = services[name]!;
      expect(seconds(service.stop_grace_period!)).toBeGreaterThanOrEqual(
        Number(service.environment!.SHUTDOWN_TIMEOUT_MS) / 1000 + 5,
      );
    }
  });
});
