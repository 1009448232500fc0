import type { Kysely } from 'kysely';
import type { Database } from './database.js';
import { engineOfUrl } from './engine.js';
import { migrateToLatest } from './migrate.js';
import { openPostgres } from './postgres.js';
import { openSqlite, sqlitePathFromUrl } from './sqlite.js';
import { PrecompiledQueries } from './performance/precompiled-queries.js';
import { ALL_TRICKS_ON, type PerformanceSwitches } from './performance/switches.js';

/** DATABASE_* and SQLITE_SYNCHRONOUS, complete: server/config.ts holds their defaults. */
export interface DatabaseSettings {
  /** DATABASE_URL: `file:` (or a path) for a SQLite file; `postgres://` or `postgresql://` for PostgreSQL. */
  url: string;
  /** PostgreSQL only: connections kept at most (SQLite has one). */
  poolSize: number;
  /** PostgreSQL only: how long opening a connection, or waiting for a free one, may take before it fails. */
  connectTimeoutMs: number;
  /** PostgreSQL only: how long one statement may run before it is cancelled (the migrations have no limit). */
  statementTimeoutMs: number;
  /** SQLite only: FULL fsyncs every commit (survives power loss); NORMAL survives kill -9 only. */
  sqliteSynchronous: 'FULL' | 'NORMAL';
}

/** What the process opening the database does with it, which no setting says. */
export interface DatabaseUse {
  /** The database's hot-path tricks; absent, all on. Only the benchmark of their gains switches one off. */
  performance?: PerformanceSwitches;
}

/** Opens (creating the SQLite file if needed) the database DATABASE_URL names and runs the migrations. */
export async function openDatabase(settings: DatabaseSettings, use: DatabaseUse = {}): Promise<Database> {
  const engine = engineOfUrl(settings.url);
  const performance = use.performance ?? ALL_TRICKS_ON;
  // A new one per database: its SQL is this database's dialect's.
  const precompiled = performance.precompiledQueries ? { precompiled: new PrecompiledQueries() } : {};
  if (engine === 'postgres') return { ...(await openPostgresDatabase(settings, performance)), ...precompiled };
  const { db, changes, backup } = openSqlite(sqlitePathFromUrl(settings.url), {
    synchronous: settings.sqliteSynchronous,
    statementCache: performance.statementCache,
    noteWrites: performance.unchangedReads,
  });
  try {
    await migrateToLatest(db as Kysely<unknown>, engine);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  // Without `changes` the stores query on every read (Stores.of).
  return {
    kysely: db,
    engine,
    connections: 1,
    ...(performance.unchangedReads ? { changes } : {}),
    ...precompiled,
    backup,
  };
}

/**
 * PostgreSQL: the migrations run on a connection of their own, without the
 * statement timeout (an index built on a large table may take longer than any
 * request should), then the pool the process serves from is opened.
 */
async function openPostgresDatabase(
  { url, poolSize, connectTimeoutMs, statementTimeoutMs }: DatabaseSettings,
  { preparedStatements }: PerformanceSwitches,
): Promise<Database> {
  const migrations = openPostgres(url, { poolSize: 1, connectTimeoutMs });
  try {
    await migrateToLatest(migrations as Kysely<unknown>, 'postgres');
  } finally {
    await migrations.destroy();
  }
  return { kysely: openPostgres(url, { poolSize, connectTimeoutMs, statementTimeoutMs, preparedStatements }), engine: 'postgres', connections: poolSize };
}
