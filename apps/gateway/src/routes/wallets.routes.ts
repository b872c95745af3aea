import { Router } from 'express';
import type { Address } from '@ton/core';
import { createValidator, ResolveWalletRequestSchema, type ResolveWalletRequest } from '@starsgate/domain';
import { resolveWallet, type ChainClient, type Network } from '@starsgate/ton';

const validateResolveWallet = createValidator<ResolveWalletRequest>(ResolveWalletRequestSchema);

export interface WalletsRouteDeps {
  network: Network;
  chain: ChainClient;
  usdtMaster: Address;
}

export function walletsRoutes(deps: WalletsRouteDeps): Router {
  const router = Router();
  router.post('/api/v1/wallets/resolve', async (req, res) => {
    const input = validateResolveWallet(req.body);
    const { publicKey: _publicKey, ...resolved } = await resolveWallet(input, deps);
    res.json(resolved);
  });
  return router;
}
