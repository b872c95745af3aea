import express from 'express';
import type { LocalChain } from '../chain/local-chain';
import type { DemoWallet } from './demo-wallets';

/** Usernames the Fragment simulator knows, with what each exercises. */
export interface DemoUsername {
  username: string;
  kind: string;
  description: string;
}

export interface DemoInfo {
  seedValue: string;
  network: string;
  wallets: DemoWallet[];
  usernames: DemoUsername[];
  fragmentLinkedWallet: Record<string, unknown> | null;
  fragment: Record<string, unknown> | null;
}

/** `GET /demo`: demo wallets, usernames and the sandbox's fixed addresses, as JSON. */
export function createDemoRouter(chain: LocalChain, info: () => DemoInfo): express.Router {
  const router = express.Router();
  router.get('/', (_req, res) => {
    const d = info();
    const prices = chain.feePrices();
    res.json({
      seed: d.seedValue,
      network: d.network,
      wallets: d.wallets,
      usernames: d.usernames,
      notFound: 'Every other username is not found.',
      usdt: {
        master: chain.usdtMaster.toString({ bounceable: true, urlSafe: true }),
        masterRaw: chain.usdtMaster.toRawString(),
        decimals: 6,
      },
      faucet: {
        address: chain.faucetAddress.toString({ bounceable: true, urlSafe: true }),
        endpoint: 'POST /faucet { address, gram?, usdt? }',
      },
      fragment: d.fragment,
      fragment_linked_wallet: d.fragmentLinkedWallet,
      chain: {
        blockMs: chain.blockMs,
        lastBlock: chain.lastBlockSeqno,
        now: chain.now(),
        fees: { gasPrice: prices.gasPrice.toString(), lumpPrice: prices.lumpPrice.toString() },
        toncenter: { v2: '/toncenter/api/v2', v3: '/toncenter/api/v3', jsonRPC: '/toncenter/api/v2/jsonRPC' },
      },
    });
  });
  return router;
}
