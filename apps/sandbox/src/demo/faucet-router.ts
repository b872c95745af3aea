import { Address } from '@ton/core';
import { formatUnits, parseUnits, GRAM_DECIMALS, USDT_DECIMALS } from '@starsgate/domain';
import express, { type ErrorRequestHandler } from 'express';
import type { LocalChain } from '../chain/local-chain';

/** Per-request faucet caps (nano-units). */
export const FAUCET_MAX = { gram: 1_000_000n * 10n ** 9n, usdt: 10_000_000n * 10n ** 6n };

class FaucetError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function amount(value: unknown, name: 'gram' | 'usdt'): bigint {
  if (value === undefined || value === null || value === '') return 0n;
  if (typeof value !== 'string') throw new FaucetError(400, `${name} must be a decimal string, e.g. "1.5"`);
  let v: bigint;
  try {
    v = parseUnits(value, name === 'gram' ? GRAM_DECIMALS : USDT_DECIMALS);
  } catch (err) {
    throw new FaucetError(400, `${name}: ${(err as Error).message}`);
  }
  if (v > FAUCET_MAX[name])
    throw new FaucetError(
      400,
      `${name}: at most ${formatUnits(FAUCET_MAX[name], name === 'gram' ? GRAM_DECIMALS : USDT_DECIMALS)} per request`,
    );
  return v;
}

/**
 * `POST /faucet { address, gram?, usdt? }` (decimal strings). Funds through real chain messages and
 * answers once they are included in a block, with the new balances.
 */
export function createFaucetRouter(chain: LocalChain): express.Router {
  const router = express.Router();
  router.use(express.json({ limit: '16kb' }));
  router.post('/', async (req, res, next) => {
    try {
      const body = (req.body ?? {}) as Record<string, unknown>;
      if (typeof body['address'] !== 'string') throw new FaucetError(400, 'address is required');
      let address: Address;
      try {
        address = Address.parse(body['address'].trim());
      } catch {
        throw new FaucetError(400, 'address is not a valid TON address');
      }
      if (address.workChain !== 0) throw new FaucetError(400, 'only workchain 0 addresses');
      const gram = amount(body['gram'], 'gram');
      const usdt = amount(body['usdt'], 'usdt');
      if (gram === 0n && usdt === 0n) throw new FaucetError(400, 'give gram and/or usdt');
      await chain.fund(address, { gram, usdt });
      const [gramBalance, usdtBalance] = await Promise.all([
        chain.getBalance(address),
        chain.getJettonBalance(address),
      ]);
      res.json({
        ok: true,
        address: address.toString({ bounceable: false, urlSafe: true }),
        funded: { gram: formatUnits(gram, GRAM_DECIMALS), usdt: formatUnits(usdt, USDT_DECIMALS) },
        balances: { gram: formatUnits(gramBalance, GRAM_DECIMALS), usdt: formatUnits(usdtBalance, USDT_DECIMALS) },
      });
    } catch (err) {
      next(err);
    }
  });
  const onError: ErrorRequestHandler = (err, _req, res, _next) => {
    const status =
      err instanceof FaucetError ? err.status : (err as { type?: string }).type === 'entity.parse.failed' ? 400 : 500;
    if (status === 500) console.error('[sandbox] faucet failed', err);
    res.status(status).json({ ok: false, error: status === 500 ? 'faucet failed' : (err as Error).message });
  };
  router.use(onError);
  return router;
}
