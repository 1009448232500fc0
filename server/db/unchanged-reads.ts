import type { Statement } from 'better-sqlite3';
import { LRUCache } from 'lru-cache';

/**
 * Whether a SQLite database may have changed since an earlier moment, as a
 * number that grows with every change: a write through this process's
 * connection (counted by `noteWrite`, which the statement cache calls before
 * every statement that writes, so before its COMMIT) or a commit by any
 * other connection, another server process or the CLI (SQLite's own
 * `PRAGMA data_version`, which changes exactly then, read on every call).
 */
export class DatabaseChanges {
  #generation = 0;
  #lastDataVersion: number | undefined;

  constructor(private readonly dataVersion: Statement<[], number>) {}

  noteWrite(): void {
    this.#generation++;
  }

  current(): number {
    const dataVersion = this.dataVersion.get();
    if (dataVersion !== this.#lastDataVersion) {
      this.#lastDataVersion = dataVersion;
      this.#generation++;
    }
    return this.#generation;
  }
}

/** How a store makes its hot reads: kept while the database is unchanged (UnchangedReads), or queried each time. */
export interface HotReads {
  read<T>(key: string, load: () => Promise<T>): Promise<T>;
}

/** Every read queries: PostgreSQL, a transaction's stores, or a Kysely built elsewhere. */
export const ALWAYS_QUERY: HotReads = { read: (_key, load) => load() };

/** Entries kept at most: tokens and per-clinic lists; the least recently used go first. */
const MAX_ENTRIES = 10_000;

/**
 * Reads answered from memory for as long as the database has not changed
 * since they were made (DatabaseChanges): the hot reads of every
 * authenticated request, a token's owner and a clinic's lists. Any write
 * anywhere drops them all, so a revoked key or an edited treatment is seen by
 * the very next request, from any process. The generation is taken before the
 * query runs, so a write that lands while it runs leaves the entry already
 * outdated rather than wrongly current; and a query waits for the one
 * connection while a transaction holds it, so it never reads a write before
 * that write's COMMIT. Callers must treat the values as
 * read-only: they are shared by every request until the next change.
 */
export class UnchangedReads implements HotReads {
  readonly #entries = new LRUCache<string, { generation: number; value: unknown }>({ max: MAX_ENTRIES });

  constructor(private readonly changes: DatabaseChanges) {}

  async read<T>(key: string, load: () => Promise<T>): Promise<T> {
    const generation = this.changes.current();
    const entry = this.#entries.get(key);
    if (entry?.generation === generation) return entry.value as T;
    const value = await load();
    // Nothing is kept for a miss: made-up tokens must not push the real ones out.
    if (value !== undefined) this.#entries.set(key, { generation, value });
    return value;
  }
}
