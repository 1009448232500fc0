import { sql } from 'kysely';
import type { Database } from '../db/database.js';

/** How long /readyz waits for the database's answer before it says not ready. */
export const READINESS_TIMEOUT_MS = 1000;

/** The probe: the cheapest statement that needs the database to answer, on SQLite and PostgreSQL alike. */
export const databaseProbe = (database: Database) => () => sql`select 1`.execute(database.kysely);

/**
 * Whether the database answers: a probe (databaseProbe), given `timeoutMs`.
 * One probe at a time: checks that arrive while one runs share it, so a load
 * balancer polling a frozen database adds no queries, however often it asks
 * (the probe itself ends by the pool's connection or query timeout, and the
 * next check after it starts a new one).
 */
export class DatabaseReadiness {
  private inFlight: Promise<boolean> | undefined;

  constructor(
    private readonly probe: () => Promise<unknown>,
    private readonly timeoutMs = READINESS_TIMEOUT_MS,
  ) {}

  async isReady(): Promise<boolean> {
    this.inFlight ??= this.probe()
      .then(
        () => true,
        () => false,
      )
      .finally(() => {
        this.inFlight = undefined;
      });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), this.timeoutMs);
    });
    try {
      return await Promise.race([this.inFlight, timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }
}
