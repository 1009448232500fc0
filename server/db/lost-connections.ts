import type { PostgresPool, PostgresPoolClient } from 'kysely';
import { isConnectionLost } from './database-faults.js';

/** A pooled client that may be handed back with an error, after which pg-pool ends it instead of keeping it. */
export interface DiscardablePoolClient extends PostgresPoolClient {
  release(error?: Error): void;
}

/** A pool of such clients (what withPreparedStatements makes of pg's pool). */
export interface DiscardablePool {
  connect(): Promise<DiscardablePoolClient>;
  end(): Promise<void>;
}

/**
 * Hands a client back to the pool with the error when a query on it failed
 * because its connection was lost, so pg-pool discards it and the next
 * checkout opens a new one. pg-pool already discards a client whose socket
 * closed; this is for the connection that stays open but no longer answers (a
 * frozen server, a network gone quiet), given up on by node-postgres's
 * client-side query_timeout: kept, it would hold every later query on it.
 * Kysely releases clients without an error, hence this layer.
 */
export function discardingLostConnections(pool: DiscardablePool): PostgresPool {
  const lost = new WeakMap<DiscardablePoolClient, Error>();
  const wrappers = new WeakMap<DiscardablePoolClient, PostgresPoolClient>();
  const wrap = (client: DiscardablePoolClient): PostgresPoolClient => ({
    query: ((...args: unknown[]) => {
      const result = (client.query as (...args: unknown[]) => unknown)(...args);
      // Kysely also passes cursors (streaming), which come back as they are.
      if (!(result instanceof Promise)) return result;
      return result.catch((error: unknown) => {
        if (isConnectionLost(error) && error instanceof Error) lost.set(client, error);
        throw error;
      });
    }) as PostgresPoolClient['query'],
    release: () => {
      const error = lost.get(client);
      lost.delete(client);
      client.release(error);
    },
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
