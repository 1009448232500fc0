import type { Statement } from 'better-sqlite3';
import { LRUCache } from 'lru-cache';

/**
 * Whether a SQLite database may have changed since an earlier moment, as a
 * number that grows with every change: a write through its own connection
 * (counted by `noteWrite`, which the statement cache calls before every
 * statement that writes, so before its COMMIT) or a commit by any other
 * connection, another server process, the CLI or another connection of this
 * process (SQLite's own `PRAGMA data_version`, which changes exactly then).
 * Each connection counts its own writes: two databases opened in one process
 * share nothing, and each sees the other's commits as another process's.
 *
 * `current` reads data_version; `currentAsOfThisTurn` trusts a reading
 * already taken in this turn of the event loop, and takes one otherwise.
 * Every authenticated request begins with a `current` (its token's owner), so
 * a read later in the same request sees every commit made before the request
 * arrived, from any process, without a second read transaction.
 */
export class DatabaseChanges {
  #ownWrites = 0;
  #otherCommits = 0;
  #lastDataVersion: number | undefined;
  #readThisTurn = false;
  readonly #turnEnded = () => {
    this.#readThisTurn = false;
  };

  constructor(private readonly dataVersion: Statement<[], number>) {}

  noteWrite(): void {
    this.#ownWrites++;
  }

  current(): number {
    const dataVersion = this.dataVersion.get();
    if (dataVersion !== this.#lastDataVersion) {
      this.#lastDataVersion = dataVersion;
      this.#otherCommits++;
    }
    if (!this.#readThisTurn) {
      this.#readThisTurn = true;
      setImmediate(this.#turnEnded).unref();
    }
    return this.#generation();
  }

  currentAsOfThisTurn(): number {
    return this.#readThisTurn ? this.#generation() : this.current();
  }

  /** Grows with every change either counter has seen: both only ever grow. */
  #generation(): number {
    return this.#otherCommits + this.#ownWrites;
  }
}

/**
 * How a store makes its hot reads: kept while the database is unchanged
 * (UnchangedReads), or queried each time. `read` looks for changes first;
 * `readAsOfThisTurn` trusts a look already taken in this turn of the event
 * loop: for the reads of a request after its token's owner.
 */
export interface HotReads {
  read<T>(key: string, load: () => Promise<T>): Promise<T>;
  readAsOfThisTurn<T>(key: string, load: () => Promise<T>): Promise<T>;
}

/** Every read queries: PostgreSQL, a transaction's stores, or stores built without an app's kept reads (the CLI, tests). */
export const ALWAYS_QUERY: HotReads = { read: (_key, load) => load(), readAsOfThisTurn: (_key, load) => load() };

/** Entries kept at most: tokens and per-clinic lists; the least recently used go first. */
const MAX_ENTRIES = 10_000;

/**
 * Reads answered from memory for as long as the database has not changed
 * since they were made (DatabaseChanges): the hot reads of every
 * authenticated request, a token's owner and a clinic's lists. Each app makes
 * its own (Stores.of), so two apps in one process share none. Any write
 * anywhere drops them all, so a revoked key or an edited treatment is seen by
 * the very next request, from any process (a request's token lookup uses
 * `read`, its lists `readAsOfThisTurn`). The generation is taken before the
 * query runs, so a write that lands while it runs leaves the entry already
 * outdated rather than wrongly current; and a query waits for the one
 * connection while a transaction holds it, so it never reads a write before
 * that write's COMMIT. Callers must treat the values as
 * read-only: they are shared by every request until the next change.
 */
export class UnchangedReads implements HotReads {
  readonly #entries = new LRUCache<string, { generation: number; value: unknown }>({ max: MAX_ENTRIES });

  constructor(private readonly changes: DatabaseChanges) {}

  read<T>(key: string, load: () => Promise<T>): Promise<T> {
    return this.#readAt(this.changes.current(), key, load);
  }

  readAsOfThisTurn<T>(key: string, load: () => Promise<T>): Promise<T> {
    return this.#readAt(this.changes.currentAsOfThisTurn(), key, load);
  }

  async #readAt<T>(generation: number, key: string, load: () => Promise<T>): Promise<T> {
    const entry = this.#entries.get(key);
    if (entry?.generation === generation) return entry.value as T;
    const value = await load();
    // Nothing is kept for a miss: made-up tokens must not push the real ones out.
    if (value !== undefined) this.#entries.set(key, { generation, value });
    return value;
  }
}
