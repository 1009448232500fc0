import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock.js';
import type { Database } from '../db/database.js';
import { PatientDataStore } from './patient-data.store.js';

const DAY_MS = 24 * 3600_000;

/** What one purge did: how many appointments it anonymised, and the first date it kept. */
export interface PurgeResult {
  anonymised: number;
  /** Appointments dated before this day (YYYY-MM-DD, UTC) were anonymised. */
  before: string;
}

/**
 * The first appointment date RETENTION_DAYS keeps: an appointment more than
 * that many days past, counted in UTC days from `now`, is anonymised. UTC,
 * not each clinic's zone: a day either way does not matter at a year's
 * retention, and one cut-off keeps the purge one statement.
 */
export function retentionCutoff(now: Date, retentionDays: number): string {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - retentionDays * DAY_MS).toISOString().slice(0, 10);
}

/** Anonymises the appointments RETENTION_DAYS no longer keeps at `now` (server/appointments/patient-data.store.ts). */
export async function purgeExpired(database: Pick<Database, 'kysely' | 'engine'>, now: Date, retentionDays: number): Promise<PurgeResult> {
  const before = retentionCutoff(now, retentionDays);
  const store = new PatientDataStore(database.kysely, database.engine);
  const anonymised = await store.anonymiseBefore(before);
  await store.forget(now);
  return { anonymised, before };
}

export interface RetentionOptions {
  database: Pick<Database, 'kysely' | 'engine'>;
  clock: Clock;
  /** RETENTION_DAYS; 0 turns retention off (nothing runs). */
  retentionDays: number;
  logger: Logger;
  /** Between two purges; a day unless a test says otherwise. */
  intervalMs?: number;
}

export interface RetentionSchedule {
  /** Stops the timer and resolves once a purge under way has finished (before the database is closed). */
  stop(): Promise<void>;
}

/**
 * Runs the purge at start and then daily, on an unref'd timer (it never keeps
 * the process alive). A failed purge is logged and tried again the next day;
 * it never stops the server. Only counts are logged, never patient data.
 */
export function scheduleRetention({ database, clock, retentionDays, logger, intervalMs = DAY_MS }: RetentionOptions): RetentionSchedule {
  if (retentionDays === 0) return { stop: () => Promise.resolve() };
  let running: Promise<void> = Promise.resolve();
  const run = () => {
    // The time of the tick, not of whenever an earlier purge lets this one start.
    const now = clock.now();
    running = running.then(() =>
      purgeExpired(database, now, retentionDays).then(
        ({ anonymised, before }) => logger.info({ anonymised, before }, 'retention: anonymised appointments past RETENTION_DAYS'),
        (error: unknown) => logger.error({ err: error }, 'retention: purge failed; tried again at the next run'),
      ),
    );
  };
  run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
