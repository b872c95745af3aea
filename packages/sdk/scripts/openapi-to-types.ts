/**
 * Turns the component schemas of the gateway's OpenAPI documents into TypeScript declarations:
 * the public /openapi.json for this SDK (src/generated/openapi-types.ts) and the demo checkout page,
 * the operator /admin/api/openapi.json for the admin UI. test/openapi-contract.test.ts regenerates
 * them from the live documents and fails when a committed file differs.
 */
type Schema = Record<string, unknown>;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function comment(text: unknown, pad: string): string {
  if (typeof text !== 'string' || text.length === 0) return '';
  const lines = text.replace(/\*\//g, '*\\/').split('\n');
  return `${pad}/**\n${lines.map((line) => `${pad} * ${line}`.trimEnd()).join('\n')}\n${pad} */\n`;
}

function typeOf(schema: Schema, depth: number): string {
  if (typeof schema.$ref === 'string') return schema.$ref.split('/').pop()!;
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  const union = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (union) return union.map((member) => typeOf(member, depth)).join(' | ');
  if (Array.isArray(schema.type)) return schema.type.map((type) => typeOf({ ...schema, type }, depth)).join(' | ');
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `Array<${typeOf((schema.items as Schema) ?? {}, depth)}>`;
    case 'object':
      return objectType(schema, depth);
    default:
      return 'unknown';
  }
}

function objectType(schema: Schema, depth: number): string {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  const pad = '  '.repeat(depth + 1);
  const lines = Object.entries(properties).map(([name, property]) => {
    const key = IDENTIFIER.test(name) ? name : JSON.stringify(name);
    return `${comment(property.description, pad)}${pad}${key}${required.has(name) ? '' : '?'}: ${typeOf(property, depth + 1)};`;
  });
  const extra = schema.additionalProperties;
  if (extra && typeof extra === 'object') lines.push(`${pad}[key: string]: ${typeOf(extra as Schema, depth + 1)};`);
  else if (extra !== false) lines.push(`${pad}[key: string]: unknown;`);
  if (lines.length === 0) return 'Record<string, never>';
  return `{\n${lines.join('\n')}\n${'  '.repeat(depth)}}`;
}

interface Document {
  components?: { schemas?: Record<string, Schema> };
  paths?: Record<string, Record<string, { operationId?: string; responses?: Record<string, Schema> }>>;
}

export interface GenerateOptions {
  /** The document's path on the gateway, named in the generated file's header. Default `/openapi.json`. */
  source?: string;
  /** Also declare `<OperationId>Response` for each operation whose 200 answer is an inline schema (no component). */
  operationResponses?: boolean;
}

/** `adminFragmentSessions` → `AdminFragmentSessionsResponse`, for each 200 JSON body that is not a `$ref`. */
function inlineResponses(document: Document): Array<[string, Schema]> {
  return Object.values(document.paths ?? {}).flatMap((item) =>
    Object.values(item).flatMap((operation) => {
      const content = operation.responses?.['200']?.content as Record<string, { schema?: Schema }> | undefined;
      const schema = content?.['application/json']?.schema;
      if (!operation.operationId || !schema || typeof schema.$ref === 'string') return [];
      const name = `${operation.operationId[0]!.toUpperCase()}${operation.operationId.slice(1)}Response`;
      return [[name, schema] as [string, Schema]];
    }),
  );
}

export function generateTypes(document: Document, options: GenerateOptions = {}): string {
  const schemas = [
    ...Object.entries(document.components?.schemas ?? {}),
    ...(options.operationResponses ? inlineResponses(document) : []),
  ].sort(([a], [b]) => a.localeCompare(b));
  const declarations = schemas.map(([name, schema]) => {
    const type = typeOf(schema, 0);
    const declaration = type.startsWith('{') ? `export interface ${name} ${type}` : `export type ${name} = ${type};`;
    return `${comment(schema.description, '')}${declaration}`;
  });
  return [
    `// Generated from the gateway's ${options.source ?? '/openapi.json'} by \`npm run openapi:update -w @starsgate/sdk\`. Do not edit.`,
    '',
    declarations.join('\n\n'),
    '',
  ].join('\n');
}
