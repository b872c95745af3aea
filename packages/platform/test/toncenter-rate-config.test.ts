import {
  ConfigError,
  finishConfig,
  readEnvironment,
  sharedConfig,
  sharedConfigProblems,
  SHARED_VARIABLES,
} from '../src';

function toncenterOf(env: Record<string, string>) {
  const { values, problems } = readEnvironment(SHARED_VARIABLES, env);
  finishConfig(problems);
  return sharedConfig(values).toncenter;
}

describe('TONCENTER_RPS', () => {
  test("defaults to toncenter's own limits: 1 without a key, 10 with one", () => {
    expect(toncenterOf({}).rps).toBe(1);
    expect(toncenterOf({ TONCENTER_API_KEY: 'k' }).rps).toBe(10);
  });

  test("takes the plan's rate, and 0 for an unlimited provider", () => {
    expect(toncenterOf({ TONCENTER_API_KEY: 'k', TONCENTER_RPS: '25' }).rps).toBe(25);
    expect(toncenterOf({ TONCENTER_RPS: '0' }).rps).toBe(0);
  });

  test('refuses anything but a whole number from 0 to 10000', () => {
    for (const bad of ['-1', '2.5', 'ten', '10001'])
      expect(() => toncenterOf({ TONCENTER_RPS: bad })).toThrow(ConfigError);
  });
});

describe('TONCENTER_RPS=0 in production', () => {
  const problemsOf = (env: Record<string, string>, production: boolean) => {
    const { values, problems } = readEnvironment(SHARED_VARIABLES, env);
    finishConfig(problems);
    return sharedConfigProblems(sharedConfig(values), production);
  };

  test('is refused with toncenter.com (and its testnet host), naming the variable and the remedy', () => {
    for (const url of ['https://toncenter.com/api/v2', 'https://testnet.toncenter.com/api/v2'])
      expect(problemsOf({ TONCENTER_URL: url, TONCENTER_RPS: '0', TONCENTER_API_KEY: 'k' }, true)).toEqual([
        expect.stringMatching(/TONCENTER_RPS=0 .*toncenter\.com.*NODE_ENV=production.*plan's rate/),
      ]);
  });

  test("is kept for a self-hosted provider, outside production, and a plan's rate passes", () => {
    expect(problemsOf({ TONCENTER_URL: 'https://ton.example.net/api/v2', TONCENTER_RPS: '0' }, true)).toEqual([]);
    expect(problemsOf({ TONCENTER_URL: 'https://toncenter.com/api/v2', TONCENTER_RPS: '0' }, false)).toEqual([]);
    expect(problemsOf({ TONCENTER_URL: 'https://toncenter.com/api/v2', TONCENTER_RPS: '25' }, true)).toEqual([]);
  });
});
