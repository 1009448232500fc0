import type { Db } from '../db/database.js';
import { centsFromDecimal } from '../money.js';
import type { StoredBookingRules } from './booking-rules.js';
import type { ParsedClinicFile } from './clinic-file.js';
import type { ClinicSnapshots } from './clinic-snapshot.store.js';

/** Clinics as tenants: creation from a clinic file, and what every tenant-scoped rule needs. */
export class ClinicStore {
  /** `snapshots`: a transaction's shared reads of the clinic (Stores.within). */
  constructor(
    private readonly db: Db,
    private readonly snapshots?: ClinicSnapshots,
  ) {}

  /** Creates the clinic, its website, treatments and dentists in one transaction. */
  async create(file: ParsedClinicFile, now: Date): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const { care_id } = await trx
        .insertInto('clinics')
        .values({ ...file.organization, ...file.booking_rules, timezone: file.timezone, created_at: now.getTime() })
        .returning('care_id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('websites')
        .values({ care_id, settings_json: JSON.stringify(file.website), updated_at: now.getTime() })
        .execute();
      for (const { base_fee, active, ...treatment } of file.treatments) {
        await trx
          .insertInto('treatments')
          .values({ ...treatment, care_id, base_fee_cents: centsFromDecimal(base_fee), active: active ? 1 : 0 })
          .execute();
      }
      for (const { consultation_fee, ...dentist } of file.dentists) {
        await trx
          .insertInto('dentists')
          .values({ ...dentist, care_id, consultation_fee_cents: centsFromDecimal(consultation_fee) })
          .execute();
      }
      return care_id;
    });
  }

  /** The first clinic with this organization name, if any. */
  async findByName(name: string): Promise<number | undefined> {
    const row = await this.db.selectFrom('clinics').select('care_id').where('name', '=', name).orderBy('care_id').executeTakeFirst();
    return row?.care_id;
  }

  async exists(careId: number): Promise<boolean> {
    const row = await this.db.selectFrom('clinics').select('care_id').where('care_id', '=', careId).executeTakeFirst();
    return row !== undefined;
  }

  async timezone(careId: number): Promise<string | undefined> {
    if (this.snapshots) return (await this.snapshots.of(careId))?.timezone;
    const row = await this.db.selectFrom('clinics').select('timezone').where('care_id', '=', careId).executeTakeFirst();
    return row?.timezone;
  }

  /** The clinic's booking rules (min_notice_minutes, horizon_days, default_duration_minutes). */
  async bookingRules(careId: number): Promise<StoredBookingRules | undefined> {
    if (this.snapshots) {
      const snapshot = await this.snapshots.of(careId);
      return snapshot && pickRules(snapshot);
    }
    const row = await this.db
      .selectFrom('clinics')
      .select(['min_notice_minutes', 'horizon_days', 'default_duration_minutes'])
      .where('care_id', '=', careId)
      .executeTakeFirst();
    return row;
  }

  /** Replaces the clinic's booking rules (validated by the caller, BookingRulesInput); false when there is no such clinic. */
  async setBookingRules(careId: number, rules: StoredBookingRules): Promise<boolean> {
    const result = await this.db.updateTable('clinics').set(pickRules(rules)).where('care_id', '=', careId).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}

const pickRules = ({ min_notice_minutes, horizon_days, default_duration_minutes }: StoredBookingRules): StoredBookingRules => ({
  min_notice_minutes,
  horizon_days,
  default_duration_minutes,
});
