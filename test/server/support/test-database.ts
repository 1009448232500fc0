import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadServerConfig } from '../../../server/config.js';
import { openDatabase, type DatabaseSettings, type DatabaseUse } from '../../../server/db/connection.js';
import type { Database } from '../../../server/db/database.js';
import type { Engine } from '../../../server/db/engine.js';
import { SERVICES } from '../../support/services.js';

/**
 * The engine the server tests run on: SQLite unless TEST_DATABASE=postgres,
 * which vitest.config.ts sets for its PostgreSQL project (the same test files,
 * run again).
 */
export const TEST_ENGINE: Engine = process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite';

/** One test's own database: a SQLite file in a fresh folder, or a fresh PostgreSQL database. */
export interface TestDatabase {
  engine: Engine;
  /** What DATABASE_URL would say to reach it. */
  url: string;
  /**
   * Where it lives, for removeDb(): the SQLite file's path, or on PostgreSQL
   * the database's URL.
   */
  location: string;
  /** Deletes it (the folder, or DROP DATABASE … WITH (FORCE)); safe to call twice. */
  remove(): Promise<void>;
}

/** A temporary folder for one test file's SQLite database. */
export function tempDbPath(): string {
  return join(mkdtempSync(join(tmpdir(), 'clinic-test-')), 'clinic.db');
}

/** A SQLite database at `path` (a new temporary one unless given). */
export function sqliteTestDatabase(path = tempDbPath()): TestDatabase {
  if (path.includes('://')) throw new Error(`not a SQLite file path: ${path} (give a PostgreSQL database as \`database\`)`);
  return {
    engine: 'sqlite',
    url: `file:${path}`,
    location: path,
    remove: async () => removeSqliteFolder(path),
  };
}

/** Removes the folder of a SQLite test database (the file, its -wal and -shm, anything beside them). */
export function removeSqliteFolder(dbPath: string): void {
  rmSync(join(dbPath, '..'), { recursive: true, force: true });
}

/** Runs statements on the server's `postgres` maintenance database, through one connection. */
async function onMaintenanceDatabase(run: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: SERVICES.postgres.url });
  await client.connect();
  try {
    await run(client);
  } finally {
    await client.end();
  }
}

/** How long a removal waits for the database's sessions to close by themselves before it ends them. */
const SESSIONS_CLOSE_WITHIN_MS = 2_000;

/**
 * Drops database `name`. A pool's end() resolves once its clients are told to end, before their
 * sessions have closed: DROP … WITH (FORCE) at that moment terminates a session mid-goodbye, and its
 * client, no longer the pool's, raises the FATAL 57P01 as an unhandled error in the test that closed
 * it. So the sessions get their moment to close first, as the server sees them (pg_stat_activity);
 * FORCE then ends only those nobody closes (a server process killed with -9 leaves some).
 */
async function dropDatabase(name: string): Promise<void> {
  await onMaintenanceDatabase(async (client) => {
    const sessions = async () =>
      Number((await client.query<{ count: string }>('select count(*) from pg_stat_activity where datname = $1', [name])).rows[0]!.count);
    for (const deadline = Date.now() + SESSIONS_CLOSE_WITHIN_MS; (await sessions()) > 0 && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await client.query(`drop database if exists ${name} with (force)`);
  });
}

/**
 * A new, empty PostgreSQL database named clinic_test_<random> on the test
 * server (TEST_POSTGRES_URL, by default postgres://postgres@127.0.0.1:5432/postgres).
 */
export async function postgresTestDatabase(): Promise<TestDatabase> {
  const name = `clinic_test_${randomBytes(6).toString('hex')}`;
  await onMaintenanceDatabase((client) => client.query(`create database ${name}`));
  const url = new URL(SERVICES.postgres.url);
  url.pathname = `/${name}`;
  let removed: Promise<void> | undefined;
  return {
    engine: 'postgres',
    url: url.href,
    location: url.href,
    remove: () => (removed ??= dropDatabase(name)),
  };
}

/** A fresh database of the engine the tests run on (TEST_ENGINE unless told). */
export function createTestDatabase(engine: Engine = TEST_ENGINE): Promise<TestDatabase> {
  return engine === 'postgres' ? postgresTestDatabase() : Promise.resolve(sqliteTestDatabase());
}

/**
 * Opens the database at `url` as the server does (migrations included), with
 * the defaults of the server's config schema for every setting `settings`
 * leaves out; every hot-path trick on unless `use` says otherwise.
 */
export function openTestDatabase(
  url: string,
  settings: Partial<DatabaseSettings> = {},
  use: DatabaseUse = {},
): Promise<Database> {
  return openDatabase({ ...loadServerConfig({ DATABASE_URL: url }).database, ...settings }, use);
}
