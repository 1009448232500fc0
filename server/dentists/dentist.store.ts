import type { Dentist } from '../../contract/index.js';
import type { Db } from '../db/database.js';
import { ALWAYS_QUERY, type HotReads } from '../db/performance/unchanged-reads.js';
import { decimalFromCents } from '../money.js';

/** Spec 2.5: the clinic's dentists. */
export class DentistStore {
  /** `reads`: how its hot reads are made; an app's kept reads (Stores.of), or without them a query each time. */
  constructor(
    private readonly db: Db,
    private readonly reads: HotReads = ALWAYS_QUERY,
  ) {}

  /**
   * Kept while the database is unchanged (see UnchangedReads), as of the look
   * the request's token lookup took in this turn: read-only for the caller.
   */
  list(careId: number): Promise<Dentist[]> {
    return this.reads.readAsOfThisTurn(`dentists:${careId}`, () => this.#list(careId));
  }

  async #list(careId: number): Promise<Dentist[]> {
    const rows = await this.db
      .selectFrom('dentists')
      .selectAll()
      .where('care_id', '=', careId)
      .orderBy('doctor_id')
      .execute();
    return rows.map((row) => ({
      doctor_id: row.doctor_id,
      doctor_name: row.doctor_name,
      specialization: row.specialization,
      qualification: row.qualification,
      experience_years: row.experience_years,
      consultation_fee: decimalFromCents(Number(row.consultation_fee_cents)),
      signature_image_url: row.signature_image_url,
    }));
  }

  async exists(careId: number, doctorId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('dentists')
      .select('doctor_id')
      .where('care_id', '=', careId)
      .where('doctor_id', '=', doctorId)
      .executeTakeFirst();
    return row !== undefined;
  }
}
