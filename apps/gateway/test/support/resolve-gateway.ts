/**
 * A gateway whose wallet resolution reads the sandbox's local chain (no Fragment), started before
 * a suite's tests and stopped after them: the wallet-resolution suites share it.
 */
import request from 'supertest';
import { startSandbox, type StartedSandbox } from '@starsgate/sandbox';
import { createTestGateway, type TestGateway } from './test-gateway';

export interface ResolveGateway {
  sandbox: StartedSandbox;
  gateway: TestGateway;
  /** POST /api/v1/wallets/resolve with this body. */
  resolve: (body: object) => request.Test;
}

/** Registers the suite's beforeAll/afterAll; the fields are set once beforeAll has run. */
export function useResolveGateway(): ResolveGateway {
  const suite = {
    resolve: (body: object) => request(suite.gateway.app).post('/api/v1/wallets/resolve').send(body),
  } as ResolveGateway;
  beforeAll(async () => {
    suite.sandbox = await startSandbox({ port: 0, blockMs: 50, fragment: false });
    suite.gateway = await createTestGateway({
      RATE_LIMIT_MAX: '100000',
      TONCENTER_URL: `${suite.sandbox.url}/toncenter`,
      USDT_MASTER_ADDRESS: suite.sandbox.chain.usdtMaster.toString(),
    });
  });
  afterAll(async () => {
    await suite.gateway?.close();
    await suite.sandbox?.close();
  });
  return suite;
}
