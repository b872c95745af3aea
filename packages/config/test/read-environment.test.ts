import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { boolean, ConfigError, finishConfig, integer, loadEnvFile, readEnvironment, string, url } from '../src';

const VARIABLES = {
  COUNT: integer({ default: 5, minimum: 1, maximum: 10, description: 'a count' }),
  SWITCH: boolean({ default: false, description: 'a switch' }),
  MODE: string({ default: 'a', enum: ['a', 'b'], description: 'a mode' }),
  TARGET: url(['https'], { default: 'https://example.com', description: 'a target' }),
  TOKEN: string({ secret: true, pattern: '^t_', patternHint: 'a t_ token', description: 'a credential' }),
  NOTE: string({ description: 'optional text' }),
} as const;

describe('readEnvironment', () => {
  test('applies defaults, converts types, treats empty as unset', () => {
    const { values, problems } = readEnvironment(VARIABLES, { COUNT: ' 7 ', SWITCH: 'yes', NOTE: '  ' });
    expect(problems).toEqual([]);
    expect(values).toEqual({ COUNT: 7, SWITCH: true, MODE: 'a', TARGET: 'https://example.com' });
  });

  test('lists every problem at once, never echoing a secret, and falls back to defaults for the rules after it', () => {
    const { values, problems } = readEnvironment(VARIABLES, {
      COUNT: '2.5',
      SWITCH: 'maybe',
      MODE: 'c',
      TARGET: 'http://user:pw@example.com',
      TOKEN: 'leaked-secret',
    });
    expect(problems).toEqual([
      'COUNT must be an integer from 1 to 10 (got "2.5")',
      'SWITCH must be true or false (got "maybe")',
      'MODE must be one of a, b (got "c")',
      'TARGET must be a https: URL (got "http://user:***@example.com/")',
      'TOKEN must be a t_ token',
    ]);
    expect(values.COUNT).toBe(5);
    problems.push('a rule of the process');
    expect(() => finishConfig(problems)).toThrow(ConfigError);
    try {
      finishConfig(problems);
    } catch (error) {
      expect((error as ConfigError).problems).toHaveLength(6);
      expect((error as Error).message).not.toContain('leaked-secret');
    }
  });

  test('refuses out-of-range integers', () => {
    expect(readEnvironment(VARIABLES, { COUNT: '11' }).problems).toEqual([
      'COUNT must be an integer from 1 to 10 (got "11")',
    ]);
  });
});

describe('loadEnvFile', () => {
  test('loads a present file without overriding what is set, and ignores an absent one', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'env-file-'));
    try {
      writeFileSync(path.join(dir, '.env'), "A=from-file\nB='quoted value'\n# C=commented\n");
      const env: NodeJS.ProcessEnv = { A: 'already-set' };
      expect(loadEnvFile(path.join(dir, '.env'), env)).toEqual(['B']);
      expect(env).toEqual({ A: 'already-set', B: 'quoted value' });
      expect(loadEnvFile(path.join(dir, 'missing.env'), env)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
