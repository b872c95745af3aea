import { gramAmount, usdtAmount } from './money.schema';
import { accountIndexField, seedField, walletAddressField } from './common.schema';

export const ResolveWalletRequestSchema = {
  $id: 'ResolveWalletRequest',
  type: 'object',
  description:
    'Spec resolution table: a 24-word seed or Base64 key is used directly (the deployed contract among V5R1/V4R2/V3R2 is chosen; account_index does not apply); a 12-word seed needs account_index, wallet_address, or both (verified as a pair).',
  required: ['seed'],
  additionalProperties: false,
  properties: { seed: seedField, wallet_address: walletAddressField, account_index: accountIndexField },
} as const;

export interface ResolveWalletRequest {
  seed: string;
  wallet_address?: string;
  account_index?: number;
}

export const ResolvedWalletSchema = {
  $id: 'ResolvedWallet',
  type: 'object',
  required: [
    'account_index',
    'wallet_version',
    'wallet_address',
    'raw_address',
    'seed_format',
    'network',
    'version_source',
  ],
  additionalProperties: false,
  properties: {
    account_index: {
      type: 'integer',
      description: 'Reuse in later purchase requests (0 for 24-word and Base64 seeds).',
    },
    wallet_version: { type: 'string', enum: ['V5R1', 'V4R2', 'V3R2'] },
    wallet_address: { type: 'string', description: 'Non-bounceable friendly form.' },
    raw_address: { type: 'string', description: '`0:<hex>` form.' },
    seed_format: { type: 'string', enum: ['bip39_12', 'ton_24', 'base64_key'] },
    network: { type: 'string', enum: ['mainnet', 'testnet'] },
    version_source: {
      type: 'string',
      enum: ['selection', 'deployed', 'default', 'default_chain_unavailable'],
      description: 'Why this contract version: chosen by the request, found deployed on chain, or the V5R1 default.',
    },
    balances: {
      type: 'object',
      required: ['gram', 'usdt'],
      additionalProperties: false,
      properties: {
        gram: gramAmount('GRAM the wallet holds, up to 9 decimals.'),
        usdt: usdtAmount('USDT the wallet holds, up to 6 decimals.'),
      },
    },
    balances_error: {
      type: 'string',
      description: 'Present instead of balances when the chain could not be read (CHAIN_UNAVAILABLE).',
    },
  },
} as const;
