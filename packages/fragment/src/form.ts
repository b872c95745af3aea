/**
 * Form encoding of Fragment API calls (docs/fragment-protocol.md §3.4): every value is a form string;
 * booleans are `1`/`0`; nested objects (`account`, `device`, …) travel as JSON strings.
 * `undefined` fields are left out, so optional fields never appear as the text "undefined".
 */
export type FormValue = string | number | boolean | bigint | Record<string, unknown> | readonly unknown[] | undefined;

export type FormFields = Record<string, FormValue>;

export function formValue(value: Exclude<FormValue, undefined>): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('form number must be finite');
    return String(value);
  }
  if (typeof value === 'bigint') return value.toString();
  return JSON.stringify(value);
}

/** `method=<name>` first, then the fields in insertion order. */
export function encodeForm(method: string, fields: FormFields): string {
  const params = new URLSearchParams();
  params.append('method', method);
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    params.append(name, formValue(value));
  }
  return params.toString();
}
