import type { Db } from '../db/database.js';
import { hotQuery, type HotQueries } from '../db/performance/precompiled-queries.js';
import type { StoredBookingRules } from './booking-rules.js';

export interface ClinicSnapshot extends StoredBookingRules {
  timezone: string;
  /** The website settings JSON; null when the clinic has none. */
  settings_json: string | null;
}

/** What a booking reads of its clinic, once per transaction. */
export const CLINIC_SNAPSHOT = hotQuery('clinic snapshot', (db, { careId }: { careId: number }) =>
  db
    .selectFrom('clinics as c')
    .leftJoin('websites as w', 'w.care_id', 'c.care_id')
    .select(['c.timezone', 'c.min_notice_minutes', 'c.horizon_days', 'c.default_duration_minutes', 'w.settings_json'])
    .where('c.care_id', '=', careId),
);

/**
 * A clinic's time zone, booking rules and website settings read in one query,
 * once per transaction: a booking needs them all, and on PostgreSQL each query
 * is a round trip. Made only for the stores of one transaction (Stores.within), so
 * nothing is kept beyond it.
 */
export class ClinicSnapshots {
  readonly #read = new Map<number, Promise<ClinicSnapshot | undefined>>();

  constructor(
    private readonly db: Db,
    private readonly queries: HotQueries,
  ) {}

  of(careId: number): Promise<ClinicSnapshot | undefined> {
    let snapshot = this.#read.get(careId);
    if (!snapshot) {
      snapshot = this.queries.rows(this.db, CLINIC_SNAPSHOT, { careId }).then(([row]) => row);
      this.#read.set(careId, snapshot);
    }
    return snapshot;
  }
}
