import { ERROR_CATALOGUE } from '../errors/error-codes';

export const ErrorBodySchema = {
  $id: 'ErrorBody',
  type: 'object',
  description: 'Every non-2xx answer has this body. `code` is stable; `message` and `action` are human texts.',
  required: ['code', 'message', 'details', 'request_id'],
  additionalProperties: false,
  properties: {
    code: { type: 'string', enum: Object.keys(ERROR_CATALOGUE), description: 'Stable machine-readable error code.' },
    message: { type: 'string' },
    details: {
      type: 'array',
      description: 'One entry per offending field (empty when the error is not about a field).',
      items: {
        type: 'object',
        required: ['field', 'message'],
        additionalProperties: false,
        properties: { field: { type: 'string' }, message: { type: 'string' } },
      },
    },
    action: { type: 'string', description: 'What the client should do next.' },
    retry_after: {
      type: 'integer',
      minimum: 0,
      description: 'Seconds to wait before retrying (429, 503, 409 in progress).',
    },
    request_id: { type: 'string', description: 'Echo of the Request-Id header; quote it in support requests.' },
  },
} as const;
