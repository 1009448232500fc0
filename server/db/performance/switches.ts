/**
 * Every database trick of this folder, by name, each on unless switched off.
 * Only bench/tricks.bench.mjs switches one off, to measure what it gains
 * against the library's plain way on its benchmark (docs/performance.md,
 * "Hot-path tricks"); the server and the CLI run with all of them on. A trick
 * leaves this list with its file, when it no longer pays for itself.
 */
export interface PerformanceSwitches {
  /** SQLite: statements kept by their text (statement-cache.ts); off, Kysely prepares every query afresh. */
  readonly statementCache: boolean;
  /** SQLite: token lookups and lists kept while the database is unchanged (unchanged-reads.ts); off, every read queries. */
  readonly unchangedReads: boolean;
  /** PostgreSQL: statements named, prepared once per connection (prepared-statements.ts); off, Kysely's unnamed queries. */
  readonly preparedStatements: boolean;
  /** Both engines: a booking's and a token check's queries compiled once per database (precompiled-queries.ts); off, Kysely builds and compiles each on every run. */
  readonly precompiledQueries: boolean;
}

/** How the server and the CLI run: every trick on. */
export const ALL_TRICKS_ON: PerformanceSwitches = {
  statementCache: true,
  unchangedReads: true,
  preparedStatements: true,
  precompiledQueries: true,
};
