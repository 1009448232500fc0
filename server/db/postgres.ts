import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { withPreparedStatements } from './prepared-statements.js';
import type { Database } from './schema.js';

export interface PostgresOptions {
  /** Connections this process keeps to PostgreSQL at most. */
  poolSize: number;
}

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

/** True for postgres:// and postgresql:// URLs. */
export const isPostgresUrl = (databaseUrl: string): boolean => /^postgres(ql)?:\/\//i.test(databaseUrl);

/**
 * Opens a pool on the database at `databaseUrl`. Nothing connects until the
 * first query (the migrations, at start-up), where a wrong URL or a server
 * that is down shows.
 */
export function openPostgres(databaseUrl: string, options: PostgresOptions): Kysely<Database> {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: options.poolSize,
    types,
    application_name: 'clinic-api',
    // An acknowledged booking is on disk: whatever the server's default, every
    // commit of this pool waits for its WAL flush.
    options: '-c synchronous_commit=on',
  });
  // An idle connection that drops (a database restart) must not crash the process;
  // the next query opens a new one.
  pool.on('error', () => undefined);
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: withPreparedStatements(pool) }) });
}
