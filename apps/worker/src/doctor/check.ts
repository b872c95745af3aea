/** One item of `npm run doctor`: its verdict, what was seen and, unless ok, what to do. */
export interface CheckResult {
  item: string;
  status: 'ok' | 'warn' | 'fail';
  detail: string;
  action?: string;
}

export const ok = (item: string, detail: string): CheckResult => ({ item, status: 'ok', detail });
export const warn = (item: string, detail: string, action: string): CheckResult => ({
  item,
  status: 'warn',
  detail,
  action,
});
export const fail = (item: string, detail: string, action: string): CheckResult => ({
  item,
  status: 'fail',
  detail,
  action,
});

/** Runs a check; a thrown error is that item's failure (the doctor goes on with the others). */
export async function guarded(
  item: string,
  action: string,
  check: () => Promise<CheckResult[]>,
): Promise<CheckResult[]> {
  try {
    return await check();
  } catch (error) {
    return [fail(item, error instanceof Error ? error.message : String(error), action)];
  }
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
