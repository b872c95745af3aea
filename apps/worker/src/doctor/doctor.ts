import { randomBytes } from 'node:crypto';
import { loadWorkerConfig, type WorkerConfig } from '../config';
import { errorText, fail, type CheckResult } from './check';
import { checkAllowListPerProduct } from './allow-list-checks';
import { checkChainProvider, checkReceivingAddresses } from './chain-checks';
import { checkFragmentSessions } from './fragment-checks';
import { checkPostgres, checkRedis, checkSecretKey } from './infra-checks';

/**
 * `npm run doctor` (and later `starsgate doctor`): a read-only check of a live configuration,
 * safe against production. It reads pages, prices, the history and chain state; it creates no
 * order, signs nothing, writes nothing (no migration, no generated key).
 */
export async function runDoctor(env: Record<string, string | undefined>): Promise<CheckResult[]> {
  const results: CheckResult[] = [checkSecretKey(env)];
  let config: WorkerConfig;
  try {
    // The key is judged above; the config is loaded with a throwaway one so that loading it never
    // generates or reads a key file.
    config = loadWorkerConfig({ ...env, STARSGATE_SECRET_KEY: `doctor:${randomBytes(32).toString('base64')}` });
  } catch (error) {
    results.push(fail('configuration', errorText(error), 'Fix the variables named (see .env.example).'));
    return results;
  }
  const checks = await Promise.all([
    checkPostgres(config.databaseUrl),
    checkRedis(config.redisUrl),
    checkChainProvider(config),
    checkReceivingAddresses(config),
    checkFragmentSessions(config, env.FRAGMENT_READ_COOKIES),
  ]);
  return [...results, ...checks.flat(), ...checkAllowListPerProduct(config)];
}

/** Non-zero on any fail. */
export function doctorExitCode(results: readonly CheckResult[]): number {
  return results.some((result) => result.status === 'fail') ? 1 : 0;
}

const MARKS: Record<CheckResult['status'], string> = { ok: 'ok  ', warn: 'warn', fail: 'FAIL' };

export function formatReport(results: readonly CheckResult[]): string {
  const lines = results.map(
    (r) => `[${MARKS[r.status]}] ${r.item}: ${r.detail}${r.action !== undefined ? `\n       → ${r.action}` : ''}`,
  );
  const count = (status: CheckResult['status']) => results.filter((r) => r.status === status).length;
  lines.push('', `${count('ok')} ok, ${count('warn')} warn, ${count('fail')} fail`);
  return lines.join('\n');
}
