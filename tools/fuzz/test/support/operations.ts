/**
 * The operations of the gateway's own OpenAPI document, each turned into an arbitrary of requests:
 * path parameters from a pool of real and malformed ids, query strings and JSON bodies generated
 * from the operation's schemas, valid or mutated in one place.
 */
import fc from 'fast-check';
import { fitAmountToProduct } from './domain-values';
import {
  applyMutation,
  invalidValueArbitrary,
  mutationArbitrary,
  validArbitrary,
  type Components,
  type JsonSchema,
  type Overrides,
} from './schema-arbitraries';

interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema?: JsonSchema;
}

interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Components };
}

export interface Operation {
  method: string;
  template: string;
  pathParameters: string[];
  query: OpenApiParameter[];
  body?: JsonSchema;
}

export function operationsOf(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths).flatMap(([template, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      method: method.toUpperCase(),
      template,
      pathParameters: (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
      query: (operation.parameters ?? []).filter((p) => p.in === 'query'),
      body: operation.requestBody?.content['application/json']?.schema,
    })),
  );
}

export interface GeneratedRequest {
  method: string;
  path: string;
  /** Raw JSON text, or undefined for no body. */
  body?: string;
  /** Whether every part was drawn valid (the request may still be refused by a deeper rule). */
  valid: boolean;
}

/** Ids that exist, ids that could exist, and ids that are no id at all. */
export function idArbitrary(realIds: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...realIds), weight: 4 },
    { arbitrary: fc.constantFrom(...realIds).map((id) => id.toUpperCase()), weight: 1 },
    { arbitrary: fc.uuid(), weight: 2 },
    {
      arbitrary: fc.oneof(
        fc.string({ minLength: 1, maxLength: 60 }),
        fc.constantFrom('..', '%2e%2e', 'null', 'undefined', '0', '-1', '%00', '%', '%ZZ', 'a'.repeat(2_000), ' '),
      ),
      weight: 2,
    },
  );
}

/** Percent-encodes the UTF-8 bytes (a lone surrogate becomes U+FFFD's, where encodeURIComponent throws). */
export const percentEncode = (value: string): string =>
  [...Buffer.from(value, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).padStart(2, '0').toUpperCase()}`,
    )
    .join('');

const encodePathSegment = (value: string): string =>
  // Keep a few raw percent sequences (malformed escapes are part of the fuzz), encode the rest.
  /^%/.test(value) ? value : percentEncode(value);

function queryArbitrary(
  parameters: OpenApiParameter[],
  components: Components,
  overrides: Overrides,
): fc.Arbitrary<{ text: string; valid: boolean }> {
  const value = (p: OpenApiParameter) =>
    (overrides[p.name] ?? validArbitrary(p.schema ?? { type: 'string' }, components)).map(String);
  const valid = fc
    .record(Object.fromEntries(parameters.map((p) => [p.name, value(p)])), {
      requiredKeys: parameters.filter((p) => p.required).map((p) => p.name),
    })
    .map((entries) => fitAmountToProduct(entries as Record<string, unknown>))
    .map((entries) => ({
      entries: Object.entries(entries).map(([k, v]): [string, string] => [k, String(v)]),
      valid: true,
    }));
  const broken = valid.chain(({ entries }) =>
    fc.oneof(
      // A value of the wrong shape or past a bound.
      parameters.length > 0
        ? fc
            .constantFrom(...parameters)
            .chain((p) =>
              invalidValueArbitrary(p.schema ?? { type: 'string' }, components).map((v) => [
                ...entries.filter(([name]) => name !== p.name),
                [p.name, typeof v === 'string' ? v : JSON.stringify(v)] as [string, string],
              ]),
            )
        : fc.constant(entries),
      // The same parameter twice (an array after parsing), and parameters nobody declared.
      fc.constant(entries.length > 0 ? [...entries, entries[0]!] : entries),
      fc
        .tuple(fc.constantFrom('x', 'limit[]', '__proto__', 'status[0]', 'a.b', ''), fc.string({ maxLength: 20 }))
        .map((extra) => [...entries, extra]),
    ),
  );
  return fc
    .oneof(
      valid,
      broken.map((entries) => ({ entries, valid: false })),
    )
    .map(({ entries, valid: ok }) => ({
      text: entries.map(([name, v]) => `${percentEncode(name)}=${percentEncode(v)}`).join('&'),
      valid: ok,
    }));
}

export function requestArbitrary(
  operation: Operation,
  components: Components,
  ids: Record<string, fc.Arbitrary<string>>,
  overrides: Overrides,
): fc.Arbitrary<GeneratedRequest> {
  const path = fc
    .tuple(...operation.pathParameters.map((name) => ids[name] ?? fc.uuid()))
    .map((values) =>
      operation.pathParameters.reduce(
        (template, name, index) => template.replace(`{${name}}`, encodePathSegment(values[index]!)),
        operation.template,
      ),
    );
  const query =
    operation.query.length > 0
      ? queryArbitrary(operation.query, components, overrides)
      : fc.constant({ text: '', valid: true });
  const bodySchema = operation.body;
  const body: fc.Arbitrary<{ text?: string; valid: boolean }> = bodySchema
    ? fc.oneof(
        validArbitrary(bodySchema, components, overrides).map((value) => ({
          text: JSON.stringify(fitAmountToProduct(value)),
          valid: true,
        })),
        fc
          .tuple(validArbitrary(bodySchema, components, overrides), mutationArbitrary(bodySchema, components))
          .map(([value, mutation]) => ({
            text: applyMutation(fitAmountToProduct(value) as Record<string, unknown>, mutation),
            valid: false,
          })),
      )
    : fc.constant({ valid: true });
  return fc.tuple(path, query, body).map(([p, q, b]) => ({
    method: operation.method,
    path: q.text ? `${p}?${q.text}` : p,
    body: b.text,
    valid: q.valid && b.valid,
  }));
}
