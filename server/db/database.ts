import type { Engine } from './engine.js';
import type { Db } from './schema.js';
import type { PrecompiledQueries } from './performance/precompiled-queries.js';
import type { DatabaseChanges } from './performance/unchanged-reads.js';

export type { Db };

/**
 * An open database, as openDatabase gives it: the Kysely that queries it and
 * what the code that must differ by engine needs to know. It travels
 * explicitly to whatever needs it (createApp, Stores, GroupCommitter, the
 * CLI), so nothing guesses the engine of a Kysely it was handed: a guess of
 * SQLite would skip PostgreSQL's locks.
 */
export interface Database {
  readonly kysely: Db;
  readonly engine: Engine;
  /** Connections it may hold at once: its pool's size on PostgreSQL, 1 on SQLite. */
  readonly connections: number;
  /**
   * SQLite: whether the file may have changed since an earlier moment, from
   * this connection or any other, so an app may keep reads meanwhile
   * (UnchangedReads). PostgreSQL tells no such thing as cheaply.
   */
  readonly changes?: DatabaseChanges;
  /**
   * The hot path's queries, each compiled once for this database's dialect
   * (Stores.of); absent, Kysely builds and compiles them on every run.
   */
  readonly precompiled?: PrecompiledQueries;
  /** SQLite: a consistent copy of the file at `destination` while others write (online backup); PostgreSQL has pg_dump. */
  readonly backup?: (destination: string) => Promise<void>;
}
