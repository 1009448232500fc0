import type { PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import type { DiscardablePool, DiscardablePoolClient } from '../lost-connections.js';

/** Statements worth preparing: the stores' queries, never DDL, transaction control or savepoints. */
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;

/**
 * Kysely's PostgreSQL driver sends every query unnamed, so PostgreSQL parses
 * and analyses it afresh each time, though the stores send the same few dozen
 * texts over and over. This pool gives each such text a name, so node-postgres
 * prepares it once per connection and afterwards sends only Bind and Execute
 * (PostgreSQL keeps choosing a custom plan per execution where a generic one
 * would be worse, e.g. for the partial slot index). Names are given to at most
 * `max` distinct texts; any beyond run unnamed, as before.
 */
export function withPreparedStatements(pool: pg.Pool, max = 500): DiscardablePool {
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    let name = names.get(text);
    if (name === undefined && names.size < max && PREPARABLE.test(text)) {
      name = `clinic_${names.size}`;
      names.set(text, name);
    }
    return name;
  };
  const wrappers = new WeakMap<pg.PoolClient, DiscardablePoolClient>();
  const wrap = (client: pg.PoolClient): DiscardablePoolClient => ({
    query: ((text: string | pg.Submittable, values?: readonly unknown[]) => {
      // Kysely also passes cursors here (streaming); those go through untouched.
      if (typeof text !== 'string') return client.query(text);
      const name = nameOf(text);
      return client.query({ name, text, values: values && [...values] });
    }) as unknown as PostgresPoolClient['query'],
    release: (error?: Error) => client.release(error),
  });
  return {
    async connect() {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (!wrapper) wrappers.set(client, (wrapper = wrap(client)));
      return wrapper;
    },
    end: () => pool.end(),
  };
}

