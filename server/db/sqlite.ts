import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely } from 'kysely';
import type { Tables } from './schema.js';
import { ImmediateSqliteDialect } from './sqlite-immediate-dialect.js';
import { querySpans } from './query-spans.js';
import { withStatementCache, withWriteNotes } from './performance/statement-cache.js';
import { DatabaseChanges } from './performance/unchanged-reads.js';

export interface SqliteOptions {
  /** FULL: every commit is on disk before it is answered (survives power loss); NORMAL survives kill -9 but not a power cut. */
  synchronous: 'FULL' | 'NORMAL';
  /** Statements kept by their text (withStatementCache); absent, on. */
  statementCache?: boolean;
  /** Every write told to `changes` before it runs, which UnchangedReads needs; absent, on. */
  noteWrites?: boolean;
}

export interface OpenedSqlite {
  db: Kysely<Tables>;
  /** Whether the file may have changed since an earlier moment, through this connection or any other (UnchangedReads keeps reads meanwhile). */
  changes: DatabaseChanges;
  /** SQLite's online backup of this file to `destination`, a consistent copy while others write (`clinic backup`). */
  backup(destination: string): Promise<void>;
}

/**
 * How long a write waits for another process's write lock (a second server, or
 * the CLI beside the server) before SQLite gives up with SQLITE_BUSY. Commits
 * take milliseconds, so a wait this long means something is stuck.
 */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;

// Moved to platform/ so the BFF's own database (bff/sites/) reads DATABASE_URL the same way.
export { sqlitePathFromUrl } from '../../platform/database/database-url.js';

/** Opens (creating if needed) the SQLite file with the pragmas every process on it must share. */
export function openSqlite(path: string, options: SqliteOptions): OpenedSqlite {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path, { timeout: SQLITE_BUSY_TIMEOUT_MS });
  // WAL: readers never block the writer. With FULL SQLite fsyncs the WAL inside every COMMIT, so
  // an acknowledged booking survives kill -9 and power loss (group commit makes one COMMIT answer many).
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma(`synchronous = ${options.synchronous}`);
  sqlite.pragma('foreign_keys = ON');
  // Erased patient data (retention, erasure) is overwritten with zeros, not left in free space (docs/privacy.md).
  sqlite.pragma('secure_delete = ON');
  const changes = new DatabaseChanges(sqlite.prepare<[], number>('PRAGMA data_version').pluck());
  const onWrite = options.noteWrites === false ? undefined : () => changes.noteWrite();
  const statements = options.statementCache === false ? withWriteNotes(sqlite, onWrite) : withStatementCache(sqlite, { onWrite });
  const db = new Kysely<Tables>({ dialect: new ImmediateSqliteDialect({ database: statements }), ...querySpans('sqlite') });
  // better-sqlite3 copies the pages a step at a time and starts again if another connection writes meanwhile.
  const backup = async (destination: string) => void (await sqlite.backup(destination));
  return { db, changes, backup };
}
