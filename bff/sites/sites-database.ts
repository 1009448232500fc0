import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type Generated, type Migration } from 'kysely';
import pg from 'pg';
import { engineOfUrl, sqlitePathFromUrl, type Engine } from '../../platform/database/database-url.js';
import { sitesTable } from './migrations/001-sites.js';
import { siteVersion } from './migrations/002-site-version.js';

/** The BFF's own tables (decision 0013): the sites, nothing of the clinic's. */
export interface SitesTables {
  sites: SiteRow;
}

/** One site's row. Origins and limits are JSON text, the same on both engines; times are ISO 8601 text. */
export interface SiteRow {
  site_id: string;
  name: string;
  upstream_url: string;
  app_key: string;
  /** The app secret, sealed (site-secrets.ts); never the secret itself. */
  app_secret_sealed: string;
  allowed_origins: string;
  time_zone: string;
  min_notice_minutes: number;
  horizon_days: number;
  default_duration_minutes: number;
  limits: string | null;
  status: string;
  created_at: string;
  updated_at: string;
  /** Moved by one at every change (site.store.ts), by the store's own writes; what a BFF compares its sites with. */
  version: Generated<number>;
}

export interface SitesDatabase {
  db: Kysely<SitesTables>;
  engine: Engine;
  close(): Promise<void>;
}

/** The migrations' own bookkeeping tables, named apart from the server's, should both ever share a PostgreSQL database. */
const MIGRATION_TABLE = 'bff_migration';
const MIGRATION_LOCK_TABLE = 'bff_migration_lock';

/** How long a write waits for another process's lock on the SQLite file (the CLI beside a running BFF). */
const SQLITE_BUSY_TIMEOUT_MS = 5000;

/**
 * Opens the BFF's database at DATABASE_URL (creating the SQLite file and its
 * folder if needed) and brings its schema up to date. A handful of rows
 * written by an operator: one SQLite connection, or a small pool.
 */
export async function openSitesDatabase(databaseUrl: string): Promise<SitesDatabase> {
  const engine = engineOfUrl(databaseUrl);
  const db = engine === 'postgres' ? openPostgres(databaseUrl) : openSqlite(sqlitePathFromUrl(databaseUrl));
  try {
    await migrate(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return { db, engine, close: () => db.destroy() };
}

function openSqlite(path: string): Kysely<SitesTables> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path, { timeout: SQLITE_BUSY_TIMEOUT_MS });
  // WAL as the server's file has it; FULL: a site the CLI said it created is on disk.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  return new Kysely<SitesTables>({ dialect: new SqliteDialect({ database: sqlite }) });
}

function openPostgres(url: string): Kysely<SitesTables> {
  const pool = new pg.Pool({ connectionString: url, max: 4, application_name: 'clinic-bff' });
  // A dropped idle connection must not end the process; the next query opens a new one.
  pool.on('error', () => undefined);
  return new Kysely<SitesTables>({ dialect: new PostgresDialect({ pool }) });
}

async function migrate(db: Kysely<SitesTables>): Promise<void> {
  const migrations: Record<string, Migration> = { '001-sites': sitesTable, '002-site-version': siteVersion };
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: MIGRATION_LOCK_TABLE,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    const name = failed ? ` (${failed.migrationName})` : '';
    throw new Error(`BFF database migration failed${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
