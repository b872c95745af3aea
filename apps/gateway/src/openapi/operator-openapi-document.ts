import { buildOpenApiDocument, type OpenApiContribution } from './openapi-document';

/**
 * The operator listener's document (`GET /admin/api/openapi.json`, behind the admin token): the
 * operator API and `/metrics`, none of the public routes. Kept out of the public `/openapi.json`,
 * which told anyone every operator route (docs/security.md, attack 22).
 */
export function buildOperatorOpenApiDocument(operator: OpenApiContribution) {
  const base = buildOpenApiDocument([operator]);
  return {
    ...base,
    info: {
      ...base.info,
      title: 'starsgate operator API',
      description:
        'The operator listener (`ADMIN_PORT`): the operator API under `/admin/api` (bearer tokens of STARSGATE_ADMIN_TOKENS) and `/metrics`. Not part of the public contract; the public API is described by `/openapi.json` on the public port.',
    },
    paths: {
      ...operator.paths,
      '/metrics': {
        get: { summary: 'Prometheus metrics', responses: { '200': { description: 'Text exposition format.' } } },
      },
    },
  };
}
