import type { Kysely } from 'kysely';
import type { Tables } from './schema.js';
import { engineOfUrl, type Engine } from './engine.js';
import { migrateToLatest } from './migrate.js';
import { openPostgres } from './postgres.js';
import { openSqlite, sqlitePathFromUrl } from './sqlite.js';
import { ALWAYS_QUERY, type HotReads, type UnchangedReads } from './unchanged-reads.js';

export type Db = Kysely<Tables>;

export interface OpenOptions {
  /** SQLite only: FULL fsyncs every commit (survives power loss); NORMAL survives kill -9 only. */
  synchronous?: 'FULL' | 'NORMAL';
  /** PostgreSQL only: connections kept at most (SQLite has one). */
  poolSize?: number;
  /** PostgreSQL only: how long opening a connection, or waiting for a free one, may take before it fails. */
  connectTimeoutMs?: number;
  /** PostgreSQL only: how long one statement may run before it is cancelled (the migrations have no limit). */
  statementTimeoutMs?: number;
  /**
   * SQLite with FULL only: fsync the WAL off the event loop before group
   * commit answers, instead of inside every COMMIT (see WalSyncer). For the
   * server, whose durable writes all go through group commit; not the CLI.
   */
  syncInBackground?: boolean;
}

export { sqlitePathFromUrl };

interface Opened {
  engine: Engine;
  /** Connections it may hold at once. */
  connections: number;
  /** Resolves once every earlier COMMIT is on disk, when COMMIT itself does not wait for that. */
  afterCommit?: () => Promise<void>;
  /** SQLite: reads answered from memory while the file is unchanged (PostgreSQL tells no such thing as cheaply). */
  unchangedReads?: UnchangedReads;
}

/** What this process opened, for the code that must differ by engine (group commit, locks). */
const opened = new WeakMap<Db, Opened>();

/** The engine behind `db`, as opened by openDatabase; SQLite for a Kysely built elsewhere (tests). */
export function engineOf(db: Db): Engine {
  return opened.get(db)?.engine ?? 'sqlite';
}

/** How many connections `db` may hold at once: its pool's size on PostgreSQL, 1 on SQLite. */
export function connectionsOf(db: Db): number {
  return opened.get(db)?.connections ?? 1;
}

/**
 * How the stores of `db` make their hot reads: kept while the file is
 * unchanged for a database openDatabase opened on SQLite; queried every time
 * on PostgreSQL, in a transaction, or for a Kysely built elsewhere.
 */
export function hotReadsOf(db: Db): HotReads {
  return opened.get(db)?.unchangedReads ?? ALWAYS_QUERY;
}

/** What must be awaited after a COMMIT before answering, when the COMMIT does not wait for the disk itself. */
export function afterCommitOf(db: Db): (() => Promise<void>) | undefined {
  return opened.get(db)?.afterCommit;
}

export const DEFAULT_POOL_SIZE = 10;
/** Every query here takes milliseconds: a connection that takes seconds to open, or a free one seconds to come, means trouble. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5000;
/** The same for a statement; the BFF gives up on a read after 5 s too. */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 5000;

/** Opens (creating the SQLite file if needed) the database DATABASE_URL names and runs the migrations. */
export async function openDatabase(databaseUrl: string, options: OpenOptions = {}): Promise<Db> {
  const engine = engineOfUrl(databaseUrl);
  if (engine === 'postgres') return openPostgresDatabase(databaseUrl, options);
  const { db, afterCommit, unchangedReads } = openSqlite(sqlitePathFromUrl(databaseUrl), {
    synchronous: options.synchronous,
    syncInBackground: options.syncInBackground,
  });
  opened.set(db, { engine, connections: 1, afterCommit, unchangedReads });
  try {
    await migrateToLatest(db as Kysely<unknown>, engine);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return db;
}

/**
 * PostgreSQL: the migrations run on a connection of their own, without the
 * statement timeout (an index built on a large table may take longer than any
 * request should), then the pool the process serves from is opened.
 */
async function openPostgresDatabase(databaseUrl: string, options: OpenOptions): Promise<Db> {
  const poolSize = options.poolSize ?? DEFAULT_POOL_SIZE;
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const migrations = openPostgres(databaseUrl, { poolSize: 1, connectTimeoutMs });
  try {
    await migrateToLatest(migrations as Kysely<unknown>, 'postgres');
  } finally {
    await migrations.destroy();
  }
  const statementTimeoutMs = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  const db = openPostgres(databaseUrl, { poolSize, connectTimeoutMs, statementTimeoutMs });
  opened.set(db, { engine: 'postgres', connections: poolSize });
  return db;
}
