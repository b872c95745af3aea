/**
 * PostgreSQL cannot be reached or is going away (restart, failover, too many connections): the
 * request was not served through no fault of the client's. Recognised by what node-postgres
 * raises: a socket error on connect, a SQLSTATE of class 08 (connection exception) or 57P0x
 * (shutdown, cannot connect now), 53300 (too many connections), or its own connection messages.
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH']);
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
const MESSAGES = [
  'Connection terminated unexpectedly',
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
];

export function isDatabaseUnavailable(error: unknown): boolean {
  // Duck-typed: socket errors are made by Node's core, not necessarily in this realm's Error.
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)))
    return true;
  return typeof message === 'string' && MESSAGES.includes(message);
}
