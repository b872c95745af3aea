import { ResolvedWalletSchema, ResolveWalletRequestSchema } from '@starsgate/domain';
import { CLIENT_ERRORS, type OpenApiContribution } from './openapi-document';

const json = (schema: unknown) => ({ 'application/json': { schema } });

export const walletsOpenApi: OpenApiContribution = {
  schemas: [ResolveWalletRequestSchema, ResolvedWalletSchema],
  paths: {
    '/api/v1/wallets/resolve': {
      post: {
        operationId: 'resolveWallet',
        summary: 'Resolve the payer account of a seed',
        description:
          "Applies the spec's wallet table and returns the account to reuse in purchases, with balances when the chain answers. Wallet errors are 400: WALLET_SELECTION_REQUIRED, INVALID_BIP39_SEED, UNSUPPORTED_WALLET_SEED_FORMAT, INVALID_WALLET_ADDRESS, INVALID_ACCOUNT_INDEX, WALLET_ADDRESS_MISMATCH, WALLET_INDEX_NOT_FOUND; 503 WALLET_RESOLVER_BUSY when key derivation is saturated.",
        requestBody: { required: true, content: json({ $ref: '#/components/schemas/ResolveWalletRequest' }) },
        responses: {
          '200': {
            description: 'The resolved account.',
            content: json({ $ref: '#/components/schemas/ResolvedWallet' }),
          },
          ...CLIENT_ERRORS,
        },
      },
    },
  },
};
