import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { AppError, type ErrorDetail } from '../errors/app-error';
import type { ErrorCode } from '../errors/error-codes';
import { DECIMAL_FORMAT } from '../schemas/money.schema';
import { clipEchoedText } from '../errors/echoed-text';
import { QUANTITY_REQUEST_FIELDS } from '../products/product-registry';

/** Fields whose errors carry their own code from the spec's catalogue (every quantity field: INVALID_AMOUNT). */
const FIELD_CODES: Readonly<Record<string, ErrorCode>> = {
  ...Object.fromEntries(QUANTITY_REQUEST_FIELDS.map((field) => [field, 'INVALID_AMOUNT' as const])),
  account_index: 'INVALID_ACCOUNT_INDEX',
  wallet_address: 'INVALID_WALLET_ADDRESS',
};

function newAjv(coerceTypes: boolean): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, coerceTypes, useDefaults: false });
  addFormats(ajv);
  ajv.addFormat('decimal', DECIMAL_FORMAT);
  return ajv;
}

const bodyAjv = newAjv(false);
const queryAjv = newAjv(true);

/** The offending field's path; a name the client sent (a missing or unknown key) is clipped. */
function fieldOf(error: ErrorObject): string {
  return clipEchoedText(fieldPathOf(error));
}

function fieldPathOf(error: ErrorObject): string {
  const path = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (error.keyword === 'required')
    return path ? `${path}.${error.params.missingProperty}` : String(error.params.missingProperty);
  if (error.keyword === 'additionalProperties') {
    return path ? `${path}.${error.params.additionalProperty}` : String(error.params.additionalProperty);
  }
  return path;
}

function messageOf(error: ErrorObject): string {
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
    case 'false schema':
      return 'is not a known field';
    case 'type':
      return `must be ${error.params.type === 'integer' ? 'an integer' : `of type ${error.params.type}`}`;
    case 'enum':
      return `must be one of: ${(error.params.allowedValues as unknown[]).join(', ')}`;
    case 'pattern':
      return 'has an invalid format';
    default:
      return error.message ?? 'is invalid';
  }
}

function codeFor(details: Array<ErrorDetail & { unknown: boolean }>): ErrorCode {
  if (details.some((detail) => detail.unknown)) return 'UNKNOWN_FIELD';
  const codes = new Set(details.map((detail) => FIELD_CODES[detail.field] ?? 'VALIDATION_FAILED'));
  const [only] = codes;
  return codes.size === 1 && only ? only : 'VALIDATION_FAILED';
}

export function validationError(errors: ErrorObject[]): AppError {
  const seen = new Set<string>();
  const details: Array<ErrorDetail & { unknown: boolean }> = [];
  for (const error of errors) {
    // `if` only reports that a `then` branch failed; the branch's own error names the field.
    if (error.keyword === 'if') continue;
    const field = fieldOf(error) || 'body';
    const message = field === 'body' && error.keyword === 'type' ? 'must be a JSON object' : messageOf(error);
    const key = `${field}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    // A `false` schema refuses a field for this product alone (another product's quantity field).
    const unknown = error.keyword === 'additionalProperties' || error.keyword === 'false schema';
    details.push({ field, message, unknown });
  }
  const code = codeFor(details);
  const first = details[0];
  const message =
    details.length === 1 && first ? `${first.field} ${first.message}.` : 'The request is invalid; see details.';
  return new AppError(code, {
    message,
    details: details.map(({ field, message: text }) => ({ field, message: text })),
  });
}

/**
 * The first string (as a field path) holding U+0000, which PostgreSQL text cannot store: such a
 * value would otherwise pass validation and fail in the database (a 500 the fuzzer found). Only
 * called on data the schema accepted, so its depth is the schema's.
 */
function nulCharacterField(data: unknown, path: string): string | undefined {
  if (typeof data === 'string') return data.includes('\u0000') ? path || 'body' : undefined;
  if (data === null || typeof data !== 'object') return undefined;
  for (const [key, value] of Object.entries(data)) {
    const found = nulCharacterField(value, Array.isArray(data) ? `${path}[${key}]` : path ? `${path}.${key}` : key);
    if (found) return found;
  }
  return undefined;
}

export type Validator<T> = (data: unknown) => T;

/**
 * Compiles a schema once and returns a function that returns the data typed or throws an
 * AppError whose details name every offending field. Query schemas coerce strings.
 */
export function createValidator<T>(schema: object, options: { coerceTypes?: boolean } = {}): Validator<T> {
  const ajv = options.coerceTypes ? queryAjv : bodyAjv;
  const id = (schema as { $id?: string }).$id;
  const compiled: ValidateFunction = (id && ajv.getSchema(id)) || ajv.compile(schema);
  return (data: unknown): T => {
    if (!compiled(data)) throw validationError(compiled.errors ?? []);
    const nulPath = nulCharacterField(data, '');
    if (nulPath) {
      const nul = clipEchoedText(nulPath);
      throw AppError.field('VALIDATION_FAILED', nul, `${nul} must not contain the character U+0000.`);
    }
    return data as T;
  };
}
