import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from './schema.js';
import { migrateToLatest } from './migrate.js';
import { withStatementCache } from './statement-cache.js';

export type Db = Kysely<Database>;

export interface OpenOptions {
  synchronous?: 'FULL' | 'NORMAL';
}

/**
 * Resolves DATABASE_URL to a SQLite file path. Accepts `file:relative/path.db`,
 * `file:/absolute/path.db`, `file::memory:` and a bare path. Other schemes are
 * refused by name: this build ships the SQLite dialect only.
 */
export function sqlitePathFromUrl(databaseUrl: string): string {
  if (databaseUrl === 'file::memory:' || databaseUrl === ':memory:') return ':memory:';
  if (databaseUrl.startsWith('file://')) return new URL(databaseUrl).pathname;
  if (databaseUrl.startsWith('file:')) return resolve(databaseUrl.slice('file:'.length));
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(databaseUrl)) {
    throw new Error(`DATABASE_URL scheme is not supported by this build (SQLite only): ${databaseUrl.split(':')[0]}`);
  }
  return resolve(databaseUrl);
}

/** Opens (creating if needed) the database, applies pragmas and runs migrations. */
export async function openDatabase(databaseUrl: string, options: OpenOptions = {}): Promise<Db> {
  const path = sqlitePathFromUrl(databaseUrl);
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path);
  // WAL: readers never block the writer; with synchronous FULL every commit is
  // fsynced before the answer, so an acknowledged booking survives kill -9 and power loss.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  try {
    await migrateToLatest(db as Kysely<unknown>);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return db;
}
