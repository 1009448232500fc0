import type { Db } from './connection.js';

interface Unit {
  work: (trx: Db) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: units of write work that arrive together share one
 * transaction, so one fsync (synchronous=FULL) acknowledges many bookings
 * instead of one. Each unit runs in its own savepoint, so a unit that fails
 * is rolled back alone; no unit's promise settles before the COMMIT is on
 * disk, so nothing is acknowledged that could still be lost.
 *
 * Batches form without any added wait: the drain runs on setImmediate, after
 * the event loop's poll phase has queued every request that arrived while the
 * previous COMMIT held the (synchronous) SQLite connection.
 */
export class GroupCommitter {
  private readonly queue: Unit[] = [];
  private scheduled = false;
  private running = false;

  constructor(
    private readonly db: Db,
    private readonly maxUnitsPerCommit = 64,
  ) {}

  /** Runs `work` inside a shared transaction; resolves with its result once committed. */
  run<T>(work: (trx: Db) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.running) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) await this.commit(this.queue.splice(0, this.maxUnitsPerCommit));
    } finally {
      this.running = false;
      if (this.queue.length > 0) this.schedule();
    }
  }

  private async commit(units: Unit[]): Promise<void> {
    const settle: (() => void)[] = [];
    let trx;
    try {
      trx = await this.db.startTransaction().execute();
      for (const [index, unit] of units.entries()) {
        const name = `unit_${index}`;
        const scoped = await trx.savepoint(name).execute();
        try {
          const value = await unit.work(scoped);
          await scoped.releaseSavepoint(name).execute();
          settle.push(() => unit.resolve(value));
        } catch (error) {
          await scoped.rollbackToSavepoint(name).execute();
          await scoped.releaseSavepoint(name).execute();
          settle.push(() => unit.reject(error));
        }
      }
      await trx.commit().execute();
    } catch (error) {
      await trx?.rollback().execute().catch(() => undefined);
      for (const unit of units) unit.reject(error);
      return;
    }
    for (const done of settle) done();
  }
}
