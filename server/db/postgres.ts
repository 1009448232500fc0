import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { discardingLostConnections } from './lost-connections.js';
import { withPreparedStatements } from './performance/prepared-statements.js';
import { querySpans } from './query-spans.js';
import type { Tables } from './schema.js';

export interface PostgresOptions {
  /** Connections this process keeps to PostgreSQL at most. */
  poolSize: number;
  /** How long opening a connection, or waiting for a free one, may take before it fails. */
  connectTimeoutMs?: number;
  /** How long one statement may run before PostgreSQL cancels it; unset, as long as it takes (the migrations). */
  statementTimeoutMs?: number;
  /** Each query's text named, so each connection prepares it once (withPreparedStatements); absent, on. */
  preparedStatements?: boolean;
}

/**
 * How much longer than the statement timeout a query may go unanswered before
 * node-postgres gives up on it itself. PostgreSQL cancels a slow statement at
 * the statement timeout and the connection stays usable; only a server that
 * cannot answer at all (frozen, or cut off) leaves the query to this timeout,
 * after which its connection is discarded (lost-connections.ts).
 */
export const CLIENT_TIMEOUT_GRACE_MS = 1000;

const INT8_OID = 20;

/**
 * int8 (bigint, and every count(*)) comes back from node-postgres as a string,
 * since it can exceed 2^53. Every int8 here is a millisecond timestamp, an
 * amount in cents or a count, all far below that, and the stores expect
 * numbers as SQLite gives them; a value that would lose precision is refused
 * instead of rounded. Set on this pool only, not on pg's global registry.
 */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === INT8_OID && format !== 'binary') return parseSafeInteger;
    return pg.types.getTypeParser(oid, format as 'text');
  }) as typeof pg.types.getTypeParser,
};

function parseSafeInteger(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`int8 value ${text} does not fit a JavaScript number`);
  return value;
}

/**
 * A connection's 'error' event, once the pool or the query it interrupted has
 * been told: node-postgres emits it when a connection drops (a restart, a
 * failover, a backend terminated) or fails to start, and an 'error' event
 * nobody listens to ends the process. The query that was running rejects
 * with the same error (its request answers 503), and pg-pool discards the
 * client when it comes back, so there is nothing left to do here.
 */
const alreadyHandled = () => undefined;

/**
 * Opens a pool on the database at `databaseUrl`. Nothing connects until the
 * first query (the migrations, at start-up), where a wrong URL or a server
 * that is down shows.
 *
 * No loss of connections ends the process: every client has an 'error'
 * listener for its whole life, idle in the pool or checked out (in a group
 * commit's transaction, holding an advisory lock), which pg-pool's own
 * listener covers only while the client is idle.
 */
export function openPostgres(databaseUrl: string, options: PostgresOptions): Kysely<Tables> {
  const { statementTimeoutMs } = options;
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: options.poolSize,
    types,
    application_name: 'clinic-api',
    // An acknowledged booking is on disk: whatever the server's default, every
    // commit of this pool waits for its WAL flush.
    options: '-c synchronous_commit=on',
    ...(options.connectTimeoutMs === undefined ? {} : { connectionTimeoutMillis: options.connectTimeoutMs }),
    ...(statementTimeoutMs === undefined ? {} : { statement_timeout: statementTimeoutMs, query_timeout: statementTimeoutMs + CLIENT_TIMEOUT_GRACE_MS }),
  });
  // An idle connection that drops: the next query opens a new one.
  pool.on('error', alreadyHandled);
  pool.on('connect', (client) => client.on('error', alreadyHandled));
  return new Kysely<Tables>({
    dialect: new PostgresDialect({ pool: discardingLostConnections(options.preparedStatements === false ? pool : withPreparedStatements(pool)) }),
    ...querySpans('postgres'),
  });
}
