import { ConfigError, finishConfig, readEnvironment, sharedConfig, SHARED_VARIABLES } from '../src';

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
