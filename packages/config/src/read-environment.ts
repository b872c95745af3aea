import Ajv, { type ValidateFunction } from 'ajv';
import { ConfigError, redactUrl } from './config-error';
import {
  ANNOTATION_KEYWORDS,
  type EnvironmentValues,
  type EnvironmentVariable,
  type EnvironmentVariables,
} from './variables';

const ajv = new Ajv({ allErrors: true, useDefaults: true, strict: true });
ajv.addVocabulary([...ANNOTATION_KEYWORDS]);
const compiled = new WeakMap<EnvironmentVariables, ValidateFunction>();

/** The JSON Schema of an environment: an object of the declared variables (others are ignored). */
export function environmentJsonSchema(variables: EnvironmentVariables): Record<string, unknown> {
  return { type: 'object', properties: variables, additionalProperties: true };
}

function validatorOf(variables: EnvironmentVariables): ValidateFunction {
  let validate = compiled.get(variables);
  if (!validate) {
    validate = ajv.compile(environmentJsonSchema(variables));
    compiled.set(variables, validate);
  }
  return validate;
}

/** ajv's validators are type guards; called through this the data keeps its declared type. */
function passes(validate: ValidateFunction, data: Record<string, unknown>): boolean {
  return validate(data);
}

const TRUE_WORDS = ['1', 'true', 'yes', 'on'];
const FALSE_WORDS = ['0', 'false', 'no', 'off'];

/** Environment text to the declared type; text that does not convert is left for ajv to refuse. */
function convert(variable: EnvironmentVariable, raw: string): unknown {
  if (variable.type === 'integer') return /^-?\d+$/.test(raw) ? Number(raw) : raw;
  if (variable.type === 'boolean') {
    if (TRUE_WORDS.includes(raw.toLowerCase())) return true;
    if (FALSE_WORDS.includes(raw.toLowerCase())) return false;
  }
  return raw;
}

function describeProblem(name: string, variable: EnvironmentVariable, raw: string): string {
  const got = variable.secret ? '' : ` (got "${redactUrl(raw)}")`;
  if (variable.type === 'integer')
    return `${name} must be an integer from ${variable.minimum} to ${variable.maximum}${got}`;
  if (variable.type === 'boolean') return `${name} must be true or false${got}`;
  if (variable.enum) return `${name} must be one of ${variable.enum.join(', ')}${got}`;
  return `${name} must be ${variable.patternHint ?? `a value matching ${variable.pattern}`}${got}`;
}

export interface ReadEnvironment<S extends EnvironmentVariables> {
  values: EnvironmentValues<S>;
  /** Every variable the schema refused; the process's own rules add theirs before `finishConfig`. */
  problems: string[];
}

/**
 * Reads the declared variables (trimmed; empty counts as unset) and validates them against their
 * schema, collecting every problem. A refused variable takes its default, so the rules that run
 * after the schema still see well-typed values.
 */
export function readEnvironment<S extends EnvironmentVariables>(
  variables: S,
  env: NodeJS.ProcessEnv = process.env,
): ReadEnvironment<S> {
  const data: Record<string, unknown> = {};
  const given: Record<string, string> = {};
  for (const [name, variable] of Object.entries(variables as EnvironmentVariables)) {
    const raw = env[name]?.trim();
    if (raw === undefined || raw === '') continue;
    given[name] = raw;
    data[name] = convert(variable, raw);
  }
  const validate = validatorOf(variables);
  const problems: string[] = [];
  if (!passes(validate, data)) {
    const refused = new Set((validate.errors ?? []).map((error) => error.instancePath.slice(1)));
    for (const [name, variable] of Object.entries(variables as EnvironmentVariables)) {
      if (!refused.has(name)) continue;
      problems.push(describeProblem(name, variable, given[name] ?? ''));
      const fallback: unknown = variable.default;
      if (fallback === undefined) delete data[name];
      else data[name] = fallback;
    }
  }
  return { values: data as EnvironmentValues<S>, problems };
}

/** Throws a ConfigError naming every problem, schema's and rules' together. */
export function finishConfig(problems: readonly string[]): void {
  if (problems.length > 0) throw new ConfigError([...problems]);
}
