/**
 * A node-postgres client that sends every statement unnamed, for a connection through a pooler in
 * transaction mode (PgBouncer `pool_mode = transaction`, docs/deployment.md "Connection budget").
 *
 * The repositories send their hot statements as named prepared statements (sql/named-statement.ts):
 * node-postgres parses one once per connection and afterwards only binds it. Behind a transaction
 * pooler, "the connection" is whichever server connection the pooler lends for that transaction, so
 * the next bind lands on a server that never parsed the statement ("prepared statement ... does not
 * exist"), or a parse on one that already has it ("already exists"). PgBouncer 1.18 (Debian 12's) has
 * no prepared-statement tracking, so the name is dropped here: an unnamed statement is parsed, bound
 * and executed in one round trip of the extended protocol, inside whatever server connection it gets.
 */
import { Client } from 'pg';

type QueryArguments = Parameters<Client['query']>;

function withoutName(config: unknown): unknown {
  if (typeof config !== 'object' || config === null || !('name' in config)) return config;
  // A Submittable (pg-cursor, pg-query-stream) drives the protocol itself: leave it alone.
  if ('submit' in config && typeof config.submit === 'function') return config;
  return { ...config, name: undefined };
}

export class UnnamedStatementClient extends Client {}

// Assigned on the prototype: pg's overloaded `query` signatures cannot be overridden one by one.
UnnamedStatementClient.prototype.query = function query(this: Client, ...args: QueryArguments) {
  const [config, ...rest] = args;
  return Client.prototype.query.apply(this, [withoutName(config), ...rest] as QueryArguments);
} as Client['query'];
