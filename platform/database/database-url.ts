import { resolve } from 'node:path';

/** The database engine behind a DATABASE_URL: what the code that must differ by engine (migrations, locks, group commit) asks. */
export type Engine = 'sqlite' | 'postgres';

/** True for postgres:// and postgresql:// URLs. */
const isPostgresUrl = (databaseUrl: string): boolean => /^postgres(ql)?:\/\//i.test(databaseUrl);

/**
 * The engine a DATABASE_URL names: `postgres://` and `postgresql://` are
 * PostgreSQL; `file:` URLs and bare paths are SQLite files; any other scheme
 * is refused by name rather than taken for a file path.
 */
export function engineOfUrl(databaseUrl: string): Engine {
  if (isPostgresUrl(databaseUrl)) return 'postgres';
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(databaseUrl) && !databaseUrl.startsWith('file://')) {
    throw new Error(
      `DATABASE_URL scheme is not supported: ${databaseUrl.split(':')[0]} (use file: for SQLite, postgres:// for PostgreSQL)`,
    );
  }
  return 'sqlite';
}

/**
 * Resolves DATABASE_URL to a SQLite file path. Accepts `file:relative/path.db`,
 * `file:/absolute/path.db`, `file://` URLs, `file::memory:` and a bare path.
 */
export function sqlitePathFromUrl(databaseUrl: string): string {
  if (databaseUrl === 'file::memory:' || databaseUrl === ':memory:') return ':memory:';
  if (databaseUrl.startsWith('file://')) return new URL(databaseUrl).pathname;
  if (databaseUrl.startsWith('file:')) return resolve(databaseUrl.slice('file:'.length));
  return resolve(databaseUrl);
}
