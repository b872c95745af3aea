/**
 * A statement sent as a named prepared statement: PostgreSQL parses and plans it once per
 * connection. Every statement in this folder is one of these, one operation per file.
 */
export interface NamedStatement {
  name: string;
  text: string;
}
