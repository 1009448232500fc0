import { inCallersTrace } from '../../platform/tracing/tracer.js';
import type { Database, Db } from './database.js';
import { isDatabaseFault, isDatabaseUnavailable } from './database-faults.js';
import { errorCodeOf } from './error-code.js';
import { isTransient } from './transient-errors.js';

interface Unit {
  work: (trx: Db) => Promise<unknown>;
  /** Where the unit runs within its transaction: see run(). */
  lockOrder: string;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  /** Runs so far that ended in a transient failure (a deadlock, a lock wait given up). */
  attempts: number;
}

export interface GroupCommitOptions {
  /** Units sharing one transaction at most. */
  maxUnitsPerCommit?: number;
  /** Transactions open at once: 1 on SQLite (one writer); several on PostgreSQL, each on its own connection. */
  maxConcurrentCommits?: number;
  /** Runs of a unit that failed transiently before its error is given to the caller. */
  maxAttempts?: number;
}

/**
 * Each engine's settings. SQLite has one connection and one writer: one
 * transaction at a time, as large as what arrived meanwhile. PostgreSQL takes
 * several transactions at once, each on a pooled connection: half the pool,
 * so that token checks and reads always find one (measured on 2 cores with 10
 * clients: 5 transactions of up to 16 bookings cost the server less CPU per
 * booking than 1, 2 or 3 larger ones, or 8 of one booking each).
 */
export function groupCommitDefaults(database: GroupCommitted): GroupCommitOptions {
  if (database.engine === 'postgres') {
    return { maxUnitsPerCommit: 16, maxConcurrentCommits: Math.max(1, Math.floor(database.connections / 2)), maxAttempts: 5 };
  }
  return { maxUnitsPerCommit: 64, maxConcurrentCommits: 1, maxAttempts: 3 };
}

/** What group commit needs of a database: its Kysely, its engine and its connections. */
export type GroupCommitted = Pick<Database, 'kysely' | 'engine' | 'connections'>;

type Settings = Required<GroupCommitOptions>;

/**
 * Group commit: units of write work that arrive together share one
 * transaction, so one COMMIT (one fsync) acknowledges many bookings instead of
 * one. No unit's promise settles before the COMMIT is on disk, so nothing is
 * acknowledged that could still be lost. Should a unit throw, the shared
 * transaction is rolled back and every unit of it runs again alone, so the
 * failure stays that unit's (see commit()); units do not throw for refusals
 * the API answers (a slot taken, a rule broken), so this is rare, and it
 * spares every batch the two round trips per unit that savepoints would cost.
 *
 * Batches form without any added wait: a batch starts on setImmediate, after
 * the event loop's poll phase has queued every request that arrived while the
 * previous COMMIT ran.
 *
 * A unit that fails transiently (a deadlock between two transactions, which
 * PostgreSQL breaks by failing one; a lock wait SQLite gave up) runs again in
 * a later transaction, up to maxAttempts.
 *
 * Units that take a lock (a booking takes its dentist's day, see
 * AppointmentStore.findOverlap) say which in `lockOrder`, and each
 * transaction runs its units in that order (arrival order among equals): so
 * every transaction, in every process, takes its locks in one order, and two
 * of them never wait for each other in a cycle. PostgreSQL would break such a
 * deadlock, but only after deadlock_timeout (1 s), and then run the whole
 * batch again unit by unit: with two dentists booked in one busy second, it
 * happened in most batches.
 */
export class GroupCommitter {
  private readonly db: Db;
  private readonly queue: Unit[] = [];
  private readonly options: Settings;
  private scheduled = false;
  private running = 0;

  /** `options` override the engine's settings (groupCommitDefaults), for tests. */
  constructor(database: GroupCommitted, options: GroupCommitOptions = {}) {
    this.db = database.kysely;
    this.options = { ...groupCommitDefaults(database), ...options } as Settings;
  }

  /**
   * Runs `work` inside a shared transaction; resolves with its result once
   * committed. `lockOrder` names the lock `work` takes, if any, as a string
   * that sorts as the locks must be taken ('' for none: such units run first).
   */
  run<T>(work: (trx: Db) => Promise<T>, lockOrder = ''): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      // With traces on, a unit's queries are spans of its own request, whichever request's turn runs the batch.
      this.queue.push({ work: inCallersTrace(work), lockOrder, resolve: resolve as (value: unknown) => void, reject, attempts: 0 });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.running >= this.options.maxConcurrentCommits) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.startCommits();
    });
  }

  private startCommits(): void {
    while (this.queue.length > 0 && this.running < this.options.maxConcurrentCommits) {
      const units = this.queue.splice(0, this.options.maxUnitsPerCommit);
      this.running++;
      void this.commit(units).finally(() => {
        this.running--;
        if (this.queue.length > 0) this.schedule();
      });
    }
  }

  /** Queues the unit again (after this transaction ends) while its error is transient and attempts remain, or rejects it. */
  private retryOrReject(unit: Unit, error: unknown): void {
    unit.attempts++;
    if (isTransient(error) && unit.attempts < this.options.maxAttempts) this.queue.push(unit);
    else unit.reject(error);
  }

  /**
   * Commits the units together; if one of them throws, the transaction is
   * rolled back and each unit runs again in a transaction of its own, so that
   * its failure (a rule broken, a conflict) is its own and the others still
   * commit. Units only read and write the database, so running one again is
   * safe, and none has settled yet.
   */
  private async commit(arrived: Unit[]): Promise<void> {
    // Array.prototype.sort is stable: units of one lock keep their arrival order.
    const units = arrived.sort((a, b) => (a.lockOrder < b.lockOrder ? -1 : a.lockOrder > b.lockOrder ? 1 : 0));
    if (units.length > 1 && (await this.commitTogether(units))) return;
    for (const unit of units) await this.commitAlone(unit);
  }

  /**
   * True when every unit has settled: the transaction committed, or the
   * database itself failed (unreachable, too slow, its disk full), which each
   * unit alone would only meet again, one connection timeout after another.
   */
  private async commitTogether(units: Unit[]): Promise<boolean> {
    const values: unknown[] = [];
    let trx;
    try {
      trx = await this.db.startTransaction().execute();
      for (const unit of units) values.push(await unit.work(trx));
    } catch (error) {
      await trx?.rollback().execute().catch(() => undefined);
      if (isTransient(error) || !isDatabaseFault(error)) return false;
      for (const unit of units) unit.reject(error);
      return true;
    }
    try {
      await trx.commit().execute();
    } catch (error) {
      await trx.rollback().execute().catch(() => undefined);
      // The database refused the commit (a deferred constraint, say): nothing was kept, and each
      // unit may run again alone. A lost connection leaves the outcome unknown: no unit runs twice.
      if (refusedByTheDatabase(error)) return false;
      for (const unit of units) unit.reject(error);
      return true;
    }
    // COMMIT returned: on disk (SQLite's FULL, PostgreSQL's synchronous_commit), so each may be answered.
    units.forEach((unit, index) => unit.resolve(values[index]));
    return true;
  }

  private async commitAlone(unit: Unit): Promise<void> {
    let trx;
    let value: unknown;
    try {
      trx = await this.db.startTransaction().execute();
      value = await unit.work(trx);
      await trx.commit().execute();
    } catch (error) {
      await trx?.rollback().execute().catch(() => undefined);
      this.retryOrReject(unit, error);
      return;
    }
    unit.resolve(value);
  }
}

/**
 * True when the database itself answered with an error (SQLite's result
 * codes, a PostgreSQL SQLSTATE), so the statement is known to have had no
 * effect; false for a connection lost on the way or a statement given up on
 * (PostgreSQL's class 08, a session ended by a shutdown, a timeout), after
 * which a COMMIT may or may not have happened.
 */
function refusedByTheDatabase(error: unknown): boolean {
  const code = errorCodeOf(error);
  if (code === undefined) return false;
  if (code.startsWith('SQLITE_')) return true;
  return /^[0-9A-Z]{5}$/.test(code) && !isDatabaseUnavailable(error);
}
