/** The two TON networks starsgate can run against. */
export type Network = 'mainnet' | 'testnet';

/** TON global ids: used in the V5R1 wallet_id and in TON Connect's `network` field. */
export const NETWORK_GLOBAL_ID: Readonly<Record<Network, number>> = { mainnet: -239, testnet: -3 };
