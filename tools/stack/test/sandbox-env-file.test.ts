/**
 * The file `npm start` leaves for `npm run doctor`: what the launcher gave the services plus the
 * shared variables they inherited from its environment, as a dotenv file only its owner can read.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SANDBOX_ENV_FILE, writeSandboxEnvFile } from '../src/sandbox-env-file';

describe('sandbox.env', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'starsgate-stack-env-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the given variables and the inherited shared ones, sorted and quoted, mode 0600', () => {
    const file = path.join(dir, 'data', SANDBOX_ENV_FILE);
    writeSandboxEnvFile(
      file,
      { TONCENTER_URL: 'http://127.0.0.1:8090/api/v2', FRAGMENT_COOKIES: "stel_ssid=it's", REDIS_URL: 'redis://given' },
      { DATABASE_URL: 'postgres://db/starsgate', REDIS_URL: 'redis://inherited', LOG_LEVEL: '', EDITOR: 'vim' },
    );
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines[0]).toMatch(/^# Written by `npm start`/);
    expect(lines.slice(1)).toEqual([
      "DATABASE_URL='postgres://db/starsgate'",
      'FRAGMENT_COOKIES="stel_ssid=it\'s"',
      "REDIS_URL='redis://given'",
      "TONCENTER_URL='http://127.0.0.1:8090/api/v2'",
      '',
    ]);
  });
});
