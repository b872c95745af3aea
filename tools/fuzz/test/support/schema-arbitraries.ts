/**
 * fast-check arbitraries generated from the JSON Schemas the gateway validates with (as its
 * OpenAPI document publishes them): bodies and queries that follow the schema, so requests get
 * past validation into the deep paths, and mutations of them that break it in one place (a field
 * missing, unknown, of the wrong type, at or past a boundary, huge, deeply nested).
 */
import fc from 'fast-check';

export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  enum?: readonly unknown[];
  const?: unknown;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema | false>;
  required?: readonly string[];
  additionalProperties?: boolean | JsonSchema;
  allOf?: readonly JsonSchema[];
  if?: JsonSchema;
  then?: JsonSchema;
};

export type Components = Record<string, JsonSchema>;

export function resolve(schema: JsonSchema, components: Components): JsonSchema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.split('/').pop()!;
  const target = components[name];
  if (!target) throw new Error(`unresolved ${schema.$ref}`);
  return resolve(target, components);
}

/** Field-specific values (real seeds, addresses, BOCs) that a schema alone cannot describe. */
export type Overrides = Record<string, fc.Arbitrary<unknown>>;

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
  if (schema.format === 'uuid') return fc.uuid();
  if (schema.format === 'date-time')
    return fc
      .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
      .map((date) => date.toISOString());
  return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 200) });
}

/** Values the schema accepts (before cross-field rules such as the amount per product). */
export function validArbitrary(
  schema: JsonSchema,
  components: Components,
  overrides: Overrides = {},
): fc.Arbitrary<unknown> {
  const s = resolve(schema, components);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string':
      return stringArbitrary(s);
    case 'integer':
      return fc.integer({ min: s.minimum ?? -1_000_000_000, max: s.maximum ?? 1_000_000_000 });
    case 'number':
      return fc.double({ min: s.minimum ?? -1e9, max: s.maximum ?? 1e9, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const item = validArbitrary(s.items ?? {}, components);
      const constraints = { minLength: s.minItems ?? 0, maxLength: s.maxItems ?? 5 };
      return s.uniqueItems ? fc.uniqueArray(item, constraints) : fc.array(item, constraints);
    }
    case 'object': {
      const branches = conditionalBranches(s, components);
      if (branches.length > 0)
        return fc.oneof(...branches.map((branch) => validArbitrary(branch, components, overrides)));
      const properties = s.properties ?? {};
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, property] of Object.entries(properties))
        if (property !== false) record[name] = overrides[name] ?? validArbitrary(property, components);
      return fc.record(record, { requiredKeys: [...(s.required ?? [])] });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Values that cross a boundary of the schema or have the wrong type. */
export function invalidValueArbitrary(schema: JsonSchema, components: Components): fc.Arbitrary<unknown> {
  const s = resolve(schema, components);
  const wrongType = fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double(),
    fc.string(),
    fc.array(fc.integer(), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }),
  );
  const boundaries: unknown[] = [];
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (type === 'integer' || type === 'number') {
    for (const bound of [s.minimum, s.maximum])
      if (bound !== undefined) boundaries.push(bound - 1, bound + 1, bound + 0.5);
    boundaries.push(0, -1, -0, 1.5, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1e308, Number.MIN_VALUE, '1', '50');
  }
  if (type === 'string') {
    if (s.maxLength !== undefined)
      boundaries.push('a'.repeat(s.maxLength + 1), 'x'.repeat(Math.min(s.maxLength, 10_000)));
    boundaries.push(
      '',
      ' ',
      '\u0000',
      '\ud800',
      '😀'.repeat(40),
      'null',
      '<script>',
      "' OR 1=1 --",
      '%00',
      '../../etc',
    );
  }
  if (s.enum) boundaries.push(...s.enum.map((value) => (typeof value === 'string' ? value.toUpperCase() : value)));
  return boundaries.length > 0 ? fc.oneof(fc.constantFrom(...boundaries), wrongType) : wrongType;
}

/** A JSON value nested `depth` levels deep (arrays or objects), to probe recursion limits. */
export function deeplyNested(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array'
    ? `${'['.repeat(depth)}1${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

export type Mutation =
  | { kind: 'drop'; field: string }
  | { kind: 'unknown'; field: string; value: unknown }
  | { kind: 'replace'; field: string; value: unknown }
  | { kind: 'whole'; value: unknown };

/** One change that makes a schema-valid object invalid (or, for an optional field, still valid). */
export function mutationArbitrary(schema: JsonSchema, components: Components): fc.Arbitrary<Mutation> {
  const s = resolve(schema, components);
  const fields = Object.entries(s.properties ?? {}).filter(
    (entry): entry is [string, JsonSchema] => entry[1] !== false,
  );
  const names = fields.map(([field]) => field);
  const replacements = fields.map(([field, property]) =>
    invalidValueArbitrary(property, components).map((value): Mutation => ({
      kind: 'replace',
      field,
      value,
    })),
  );
  return fc.oneof(
    { arbitrary: fc.constantFrom(...names).map((field): Mutation => ({ kind: 'drop', field })), weight: 2 },
    {
      arbitrary: fc
        .tuple(
          fc.oneof(
            fc.string({ minLength: 1, maxLength: 12 }),
            fc.constantFrom('__proto__', 'constructor', 'seed', 'mnemonic', 'Amount', 'product '),
          ),
          fc.jsonValue({ maxDepth: 2 }),
        )
        .map(([field, value]): Mutation => ({ kind: 'unknown', field, value })),
      weight: 2,
    },
    { arbitrary: fc.oneof(...replacements), weight: 5 },
    {
      arbitrary: fc
        .oneof(
          fc.constant(null),
          fc.jsonValue({ maxDepth: 2 }),
          fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
        )
        .map((value): Mutation => ({ kind: 'whole', value })),
      weight: 1,
    },
  );
}

/** The body as raw JSON text: `JSON.stringify` would drop a `__proto__` key set by assignment. */
export function applyMutation(body: Record<string, unknown>, mutation: Mutation): string {
  if (mutation.kind === 'whole') return JSON.stringify(mutation.value) ?? 'null';
  const entries = Object.entries(body).filter(([name]) => name !== mutation.field);
  if (mutation.kind !== 'drop') entries.push([mutation.field, mutation.value]);
  return `{${entries.map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value) ?? 'null'}`).join(',')}}`;
}

/**
 * An object whose fields depend on one of them (`allOf` of `if: {properties: {product: {const}}}`
 * / `then`, as each product's quantity fields): one schema per condition, with that field fixed,
 * the fields its `then` forbids left out and its rules and required fields merged in, so a valid
 * request is valid for the product it names. None when the object has no such rule.
 */
function conditionalBranches(s: JsonSchema, components: Components): JsonSchema[] {
  const rules = (s.allOf ?? []).filter((rule) => rule.if?.properties && rule.then);
  return rules.map((rule) => {
    const properties: Record<string, JsonSchema | false> = { ...s.properties, ...rule.if!.properties };
    for (const [name, extra] of Object.entries(rule.then!.properties ?? {})) {
      const base = properties[name];
      properties[name] =
        extra === false || base === false || base === undefined ? extra : { ...resolve(base, components), ...extra };
    }
    return {
      ...s,
      allOf: (s.allOf ?? []).filter((other) => !rules.includes(other)),
      properties,
      required: [...new Set([...(s.required ?? []), ...(rule.then!.required ?? [])])],
    };
  });
}
