import type { Database as SqliteHandle, Statement } from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/**
 * Kysely's SQLite driver prepares every query afresh; preparing is a fair
 * share of a simple request's cost. Kysely emits the same SQL text for the
 * same query shape, so statements are kept by text and reused (SQLite
 * re-prepares one itself if the schema changes). Bounded: the oldest is
 * dropped once `max` distinct texts are held.
 *
 * `onWrite` is called before every run of a statement that is not read-only,
 * by SQLite's own verdict: INSERT, UPDATE and DELETE, with or without
 * RETURNING, and DDL. BEGIN and COMMIT count as read-only there; the writes
 * between them are what counts (DatabaseChanges).
 */
export function withStatementCache(sqlite: SqliteHandle, { max = 512, onWrite }: { max?: number; onWrite?: () => void } = {}): SqliteDatabase {
  const statements = new Map<string, Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = noteWrites(sqlite.prepare(sql), onWrite);
        if (statements.size >= max) statements.delete(statements.keys().next().value!);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

/**
 * Kysely's plain way, every query prepared afresh, with writes still told to
 * `onWrite`: the statement cache switched off (PerformanceSwitches), while
 * kept reads still learn of every write.
 */
export function withWriteNotes(sqlite: SqliteHandle, onWrite: (() => void) | undefined): SqliteDatabase {
  if (!onWrite) return sqlite;
  return { close: () => sqlite.close(), prepare: (sql: string) => noteWrites(sqlite.prepare(sql), onWrite) };
}

/** A writing statement as Kysely's driver uses it (`reader`, then `all`, `run` or `iterate`), telling `onWrite` first. */
function noteWrites(statement: Statement, onWrite: (() => void) | undefined): Statement {
  if (!onWrite || statement.readonly) return statement;
  const writer: Pick<Statement, 'reader' | 'readonly' | 'all' | 'run' | 'iterate'> = {
    reader: statement.reader,
    readonly: false,
    all: (...parameters: unknown[]) => {
      onWrite();
      return statement.all(...parameters);
    },
    run: (...parameters: unknown[]) => {
      onWrite();
      return statement.run(...parameters);
    },
    iterate: (...parameters: unknown[]) => {
      onWrite();
      return statement.iterate(...parameters);
    },
  };
  return writer as Statement;
}
