import type { Database as SqliteHandle, Statement } from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/**
 * Kysely's SQLite driver prepares every query afresh; preparing is a fair
 * share of a simple request's cost. Kysely emits the same SQL text for the
 * same query shape, so statements are kept by text and reused (SQLite
 * re-prepares one itself if the schema changes). Bounded: the oldest is
 * dropped once `max` distinct texts are held.
 */
export function withStatementCache(sqlite: SqliteHandle, max = 512): SqliteDatabase {
  const statements = new Map<string, Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = sqlite.prepare(sql);
        if (statements.size >= max) statements.delete(statements.keys().next().value!);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}
