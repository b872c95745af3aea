/**
 * A process's environment, declared once: each variable is a JSON Schema property (type, default,
 * bounds, enum or pattern, description) with a few annotations the generator of `.env.example`
 * and docs/configuration.md uses. `readEnvironment` validates against it with ajv; the TypeScript
 * type of the values follows from the declaration (`EnvironmentValues`).
 */
export type ProcessName = 'gateway' | 'worker' | 'sandbox' | 'migrate';

interface Annotations {
  description: string;
  /** Says what the default is when it is computed (e.g. from another variable) rather than fixed. */
  defaultText?: string;
  /** The value `.env.example` ships when it is not the default (the sandbox's demo values). */
  example?: string;
  /** `.env.example` shows the line commented out (compose supplies its own value, or the default is computed). */
  exampleCommented?: boolean;
  /** A credential: problems never echo its value. */
  secret?: boolean;
  /** Read only by tests; deployments never set it. */
  testOnly?: boolean;
  /** Read only to refuse it in production: deployments must not give it to this process. */
  refused?: boolean;
}

export interface IntegerVariable extends Annotations {
  type: 'integer';
  default?: number;
  minimum: number;
  maximum: number;
}

export interface BooleanVariable extends Annotations {
  type: 'boolean';
  default?: boolean;
}

export interface StringVariable extends Annotations {
  type: 'string';
  default?: string;
  enum?: readonly string[];
  pattern?: string;
  /** How a problem names what `pattern` wants ("a postgres: or postgresql: URL"). */
  patternHint?: string;
}

export type EnvironmentVariable = IntegerVariable | BooleanVariable | StringVariable;
export type EnvironmentVariables = Readonly<Record<string, EnvironmentVariable>>;

/** The annotation keywords beside JSON Schema's own, registered with ajv as its vocabulary. */
export const ANNOTATION_KEYWORDS = [
  'defaultText',
  'example',
  'exampleCommented',
  'secret',
  'testOnly',
  'refused',
  'patternHint',
] as const;

type ValueOf<V> = V extends { type: 'integer' }
  ? number
  : V extends { type: 'boolean' }
    ? boolean
    : V extends { enum: readonly (infer E)[] }
      ? E
      : string;

/** The values a declaration yields: a variable without a default may be undefined. */
export type EnvironmentValues<S extends EnvironmentVariables> = {
  readonly [K in keyof S]: S[K] extends { default: unknown } ? ValueOf<S[K]> : ValueOf<S[K]> | undefined;
};

export const integer = <const V extends Omit<IntegerVariable, 'type'>>(variable: V) =>
  ({ type: 'integer', ...variable }) as const;
export const boolean = <const V extends Omit<BooleanVariable, 'type'>>(variable: V) =>
  ({ type: 'boolean', ...variable }) as const;
export const string = <const V extends Omit<StringVariable, 'type'>>(variable: V) =>
  ({ type: 'string', ...variable }) as const;

/** A TCP port (0: the OS picks one). */
export const port = <const V extends { default: number; description: string }>(variable: V) =>
  integer({ minimum: 0, maximum: 65_535, ...variable });

/** A URL whose scheme is one of `protocols` (without the colon). */
export const url = <const V extends Omit<StringVariable, 'type' | 'pattern' | 'patternHint'>>(
  protocols: readonly string[],
  variable: V,
) =>
  string({
    pattern: `^(${protocols.join('|')})://[^\\s]+$`,
    patternHint: `a ${protocols.map((protocol) => `${protocol}:`).join(' or ')} URL`,
    ...variable,
  });
